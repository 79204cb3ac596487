package engine

import "slices"

// WordLen returns the length of the words of the projection's table of
// words (0 when it has none).
func (p *Proj) WordLen() int { return p.w }

// HasAcceptingPath is the accepting-path check of Inter: on words when
// small is true (at most 64 states), else the general one.
func (t *Tables) HasAcceptingPath(sub []uint64, small bool) bool {
	if small {
		return t.hasAcceptingPath64(sub)
	}
	s := &scratch{seen: make([]uint64, t.sw)}
	n := t.NumStates
	t.NumStates = 65 // past the small case
	defer func() { t.NumStates = n }()
	return t.hasAcceptingPath(sub, s)
}

// Probe runs the probe of a central search of mt (in prefix or accept
// mode), with the checker's pruning and every transition, and reports
// whether it decided (it found an interleaving).
func (c *Checker) Probe(mt [][]Action, prefix bool) bool {
	s := c.newScratch()
	s.s.init(c, mt, prefix, nil, c.prune)
	defer s.s.release()
	return s.s.probe()
}

// Search runs the search proper of mt, without its probe (see Probe).
func (c *Checker) Search(mt [][]Action, prefix bool) bool {
	s := c.newScratch()
	s.s.init(c, mt, prefix, nil, c.prune)
	defer s.s.release()
	found, _ := s.s.run()
	return found
}

// BackRows returns the backward rows of a central search of mt, as its
// init computes them (on automata of one word of states, the walks of
// bwdRows), and as one letter at a time by the row tables' next (the
// reference), row by position and location.
func (c *Checker) BackRows(mt [][]Action, prefix bool) (got, want [][]uint64) {
	s := c.newScratch()
	s.s.init(c, mt, prefix, nil, true)
	defer s.s.release()
	w := s.s.w
	for i, tr := range mt {
		got = append(got, slices.Clone(s.s.bwd[i][:(len(tr)+1)*w]))
		back := s.s.backOf(i)
		rows := make([]uint64, (len(tr)+1)*w)
		b := back.start
		for j := len(tr); ; j-- {
			copy(rows[j*w:(j+1)*w], back.rows[b.row:])
			if j == 0 {
				break
			}
			b = back.next(b, uint32(tr[j-1]-c.t.Projs[i].Base))
		}
		want = append(want, rows)
	}
	return got, want
}
