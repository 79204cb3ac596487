package automata

import (
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/repair"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// Repair returns a smallest repair of mt in the engine's mode: the
// alignment of its logs with the NFA (nfa.Checker.Align), its edits worded
// with the events of mt and of the letters inserted. In prefix mode what a
// location does after its log stops costs nothing (lifeline removal), so
// the repaired multi-trace is a multi-prefix; in accept mode it is
// accepted. The error is that of the building of the checker of mt's
// partition (Check then answers Inconc). The repair is not checked here:
// the front door checks it again (check.Checker.Repair).
func (e *Engine) Repair(mt *multitrace.MultiTrace, opt nfa.AlignOptions) (repair.Result, error) {
	l, _ := e.locateMT(mt)
	if l.err != nil {
		return repair.Result{}, l.err
	}
	b := e.spare.Swap(nil)
	if b == nil {
		b, _ = e.letters.Get().(*letterBuf)
	}
	if b == nil {
		b = &letterBuf{}
	}
	defer e.putLetters(b)
	al := l.c.Align(l.trace(b, mt), modeOf(e.opt.Mode), opt)
	res := repair.Result{Found: al.Found, Nodes: al.Nodes}
	if al.Stopped != nfa.NoReason {
		res.Incomplete, res.Reason = true, reasonOf[al.Stopped]
		what := fmt.Sprintf("node budget reached (%d states)", al.Nodes)
		if al.Stopped == nfa.Timeout {
			what = "time budget reached"
		}
		res.Detail = "the alignment stopped before it proved the repair smallest: " + what
	}
	events := l.events(e)
	res.Edits = make([]repair.Edit, len(al.Edits))
	for k, ed := range al.Edits {
		r := repair.Edit{Op: verdict.Delete, Component: ed.Loc, Index: ed.Index}
		if ed.Insert {
			r.Op, r.Event = verdict.Insert, events[ed.Loc][ed.Letter]
		} else {
			r.Event = mt.Components[ed.Loc].Trace[ed.Index]
		}
		res.Edits[k] = r
	}
	return res, nil
}

// events returns, per location of l and per letter, the event it stands
// for: the part there of the symbols that show it (made on first use).
func (l *located) events(e *Engine) [][]interaction.MultiAction {
	l.eventsOnce.Do(func() {
		alph := l.c.Alphabets()
		l.eventOf = make([][]interaction.MultiAction, len(l.locs))
		for i := range l.locs {
			l.eventOf[i] = make([]interaction.MultiAction, len(alph.Letters(i)))
		}
		for _, m := range e.acts {
			for i, g := range l.locs {
				if part := m.Restrict(g); len(part) > 0 {
					if x, ok := l.letters[i].Lookup(part); ok {
						l.eventOf[i][x] = part
					}
				}
			}
		}
	})
	return l.eventOf
}
