package compile

import (
	"fmt"
	"slices"

	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/nfa/engine"
	"github.com/ivc-project/ivc/syntax"
)

// model is what the generated code is made of, derived from a Config: the
// actions laid out by location, and the engine's tables with each
// location's letters at its actions.
type model struct {
	cfg Config
	// t are the checker's tables, alph its locations' alphabets (typed
	// letters), letters the names of each location's letters, symbols
	// those of the NFA's symbols.
	t       *engine.Tables
	alph    *nfa.Alphabets
	letters [][]string
	symbols []string
	nloc    int

	// Actions, by id: those of location i are [locs[i].base, locs[i].end),
	// its letters first (letter x is action base+x), then the single
	// actions of its lifelines that no symbol shows.
	actions []action
	// sigAction[(l*M+m)*2+kind] is the id of the single action l!m (kind 0)
	// or l?m (kind 1).
	sigAction []int
	multi     []multiAction
	locs      []*locModel

	// out are the tables the generated verifier runs on: t with each
	// location's letters at its actions.
	out *engine.Tables
}

// action is an event of a local trace that the verifier names.
type action struct {
	name     string
	loc      int
	lifeline int // for a single action; -1 for a multi-action
}

// multiAction is a letter made of several actions (a <synch> message seen
// by one location): its parts as ids of single actions, sorted.
type multiAction struct {
	parts []int
	id    int
}

// locModel is one location's layout.
type locModel struct {
	name      string
	lifelines []int
	base, end int // its actions
	k         int // its letters
}

func newModel(cfg Config) (*model, error) {
	if err := CheckPackageName(cfg.Package); err != nil {
		return nil, fmt.Errorf("gen: %w", err)
	}
	c := cfg.Checker
	if c == nil {
		return nil, fmt.Errorf("gen: no checker")
	}
	t := c.Tables()
	alph := c.Alphabets()
	m := &model{cfg: cfg, t: t, alph: alph, nloc: len(t.Projs), symbols: c.NFA().Symbols().Names()}
	for i := range alph.Num() {
		m.letters = append(m.letters, alph.Letters(i))
	}
	if len(cfg.Lifelines) == 0 {
		return nil, fmt.Errorf("gen: no lifelines: the generated verifier reads .htf multi-traces, which need a signature")
	}
	if len(cfg.Locations) != m.nloc || m.nloc == 0 {
		return nil, fmt.Errorf("gen: %d entries in Locations for a checker of %d locations", len(cfg.Locations), m.nloc)
	}
	owner := make([]int, len(cfg.Lifelines))
	for i := range owner {
		owner[i] = -1
	}
	for i, g := range cfg.Locations {
		if len(g) == 0 {
			return nil, fmt.Errorf("gen: location %d has no lifeline", i)
		}
		for _, l := range g {
			if l < 0 || l >= len(owner) {
				return nil, fmt.Errorf("gen: location %d: lifeline %d out of range", i, l)
			}
			if owner[l] >= 0 {
				return nil, fmt.Errorf("gen: lifeline %s is in locations %d and %d", cfg.Lifelines[l], owner[l], i)
			}
			owner[l] = i
		}
	}
	for l, o := range owner {
		if o < 0 {
			return nil, fmt.Errorf("gen: lifeline %s is in no location", cfg.Lifelines[l])
		}
	}
	if err := m.layActions(owner); err != nil {
		return nil, err
	}
	m.out = m.placed()
	return m, nil
}

// placed returns the tables with each location's letters at its actions:
// the same tables but for the bases and the parts' actions.
func (m *model) placed() *engine.Tables {
	out := *m.t
	out.Projs = slices.Clone(m.t.Projs)
	for i := range out.Projs {
		out.Projs[i].Base = engine.Action(m.locs[i].base)
	}
	out.Parts = make([][]engine.Part, len(m.t.Parts))
	for x, ps := range m.t.Parts {
		for _, p := range ps {
			out.Parts[x] = append(out.Parts[x], engine.Part{Loc: p.Loc, Action: p.Action + engine.Action(m.locs[p.Loc].base)})
		}
	}
	return &out
}

func nwords(n int) int { return (n + 63) >> 6 }

// layActions numbers the actions location by location: the letters of the
// location (its parts of the symbols), then the single actions of its
// lifelines that are no letter, by lifeline, message and kind.
func (m *model) layActions(owner []int) error {
	cfg := m.cfg
	nm := len(cfg.Messages)
	m.sigAction = make([]int, len(cfg.Lifelines)*nm*2)
	for i := range m.sigAction {
		m.sigAction[i] = -1
	}
	// code returns the code (l*M+m)*2+kind of the single action a,
	// checked against the signature.
	code := func(a nfa.Action) (int, error) {
		if a.Lifeline < 0 || a.Lifeline >= len(cfg.Lifelines) {
			return 0, fmt.Errorf("lifeline %d out of range", a.Lifeline)
		}
		if a.Message < 0 || a.Message >= nm {
			return 0, fmt.Errorf("message %d out of range", a.Message)
		}
		kind := 0
		if a.Receive {
			kind = 1
		}
		return (a.Lifeline*nm+a.Message)*2 + kind, nil
	}
	type pendingMulti struct {
		codes []int
		id    int
	}
	var pending []pendingMulti
	for i := range m.nloc {
		name := m.t.Projs[i].Name
		lm := &locModel{name: name, lifelines: slices.Clone(cfg.Locations[i]), base: len(m.actions), k: len(m.letters[i])}
		slices.Sort(lm.lifelines)
		for x, letter := range m.letters[i] {
			id := len(m.actions)
			acts := m.alph.Actions(i, nfa.Letter(x))
			if len(acts) == 0 {
				return fmt.Errorf("gen: location %s: letter %s has no actions (gen needs an automaton compiled from an interaction)", name, letter)
			}
			var codes []int
			for _, a := range acts {
				c, err := code(a)
				if err != nil {
					return fmt.Errorf("gen: location %s: letter %s: %v", name, letter, err)
				}
				if owner[a.Lifeline] != i {
					return fmt.Errorf("gen: location %s: letter %s is on lifeline %s of another location", name, letter, cfg.Lifelines[a.Lifeline])
				}
				codes = append(codes, c)
			}
			if len(acts) > 1 {
				pending = append(pending, pendingMulti{codes, id})
				m.actions = append(m.actions, action{name: letter, loc: i, lifeline: -1})
				continue
			}
			if m.sigAction[codes[0]] >= 0 {
				return fmt.Errorf("gen: location %s: letter %s twice", name, letter)
			}
			m.sigAction[codes[0]] = id
			m.actions = append(m.actions, action{name: letter, loc: i, lifeline: acts[0].Lifeline})
		}
		for _, l := range lm.lifelines {
			for msg := range nm {
				for kind, op := range "!?" {
					code := (l*nm+msg)*2 + kind
					if m.sigAction[code] >= 0 {
						continue
					}
					m.sigAction[code] = len(m.actions)
					// Named as a .htf writes it, as the letters are.
					name := syntax.QuoteName(cfg.Lifelines[l]) + string(op) + syntax.QuoteName(cfg.Messages[msg])
					m.actions = append(m.actions, action{name: name, loc: i, lifeline: l})
				}
			}
		}
		lm.end = len(m.actions)
		m.locs = append(m.locs, lm)
	}
	if len(m.actions) >= 1<<31-1 {
		return fmt.Errorf("gen: %d actions", len(m.actions))
	}
	for _, p := range pending {
		var parts []int
		for _, c := range p.codes {
			parts = append(parts, m.sigAction[c])
		}
		slices.Sort(parts)
		if len(slices.Compact(slices.Clone(parts))) != len(parts) {
			return fmt.Errorf("gen: letter %s repeats an action", m.actions[p.id].name)
		}
		m.multi = append(m.multi, multiAction{parts: parts, id: p.id})
	}
	return nil
}
