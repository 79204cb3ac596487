package interaction

import (
	"fmt"

	"github.com/ivc-project/ivc/internal/scan"
	"github.com/ivc-project/ivc/syntax"
)

// Signature builds the signature declared by f. A name declared twice in
// sections of the same kind is accepted, as HIBOU accepts it: the first
// declaration counts (one id), and each repeat is returned as a warning
// naming file:line:col, "warning: message m declared twice (first at
// 1:10)". A name declared both as a lifeline and as a gate is an error.
func (f *SigFile) Signature(file string) (sig *Signature, warnings []error, err error) {
	sig = &Signature{}
	seen := map[string]syntax.Pos{}
	for _, sec := range f.Sections {
		for i, n := range sec.Names {
			var text Name // the name n stands for, when n is an alias
			if i < len(sec.Texts) {
				text = sec.Texts[i]
			}
			if text.Text != "" {
				if err := declareAlias(sig, sec.Kind, n, text, seen); err != nil {
					return nil, nil, &syntax.Error{File: file, Pos: n.Pos, Msg: err.Error()}
				}
				continue
			}
			key := sec.Kind + ":" + n.Text
			if first, dup := seen[key]; dup {
				warnings = append(warnings, &syntax.Error{File: file, Pos: n.Pos,
					Msg: fmt.Sprintf("warning: %s %s declared twice (first at %s)", sec.Kind, n.Text, first)})
				continue
			}
			// Lifelines and gates share one name space.
			other := map[string]string{"lifeline": "gate", "gate": "lifeline"}[sec.Kind]
			if first, dup := seen[other+":"+n.Text]; dup {
				return nil, nil, &syntax.Error{File: file, Pos: n.Pos,
					Msg: fmt.Sprintf("%q is declared as a %s and as a %s (first at %s)", n.Text, other, sec.Kind, first)}
			}
			seen[key] = n.Pos
			var err error
			switch sec.Kind {
			case "message":
				err = sig.AddMessage(n.Text)
			case "lifeline":
				err = sig.AddLifeline(n.Text)
			case "gate":
				err = sig.AddGate(n.Text)
			}
			if err != nil {
				return nil, nil, &syntax.Error{File: file, Pos: n.Pos, Msg: err.Error()}
			}
		}
	}
	if len(sig.Lifelines) == 0 {
		return nil, nil, &syntax.Error{File: file, Pos: syntax.Pos{Line: 1, Col: 1}, Msg: "no lifeline declared: add a @lifeline{...} section"}
	}
	return sig, warnings, nil
}

// declareAlias declares the lifeline or message text with the alias n. An
// alias is new syntax, not HIBOU's: its repeats are errors, not warnings.
func declareAlias(sig *Signature, kind string, n, text Name, seen map[string]syntax.Pos) error {
	for _, x := range []Name{n, text} {
		for _, k := range []string{"message", "lifeline", "gate"} {
			if k == "message" && kind != "message" || k != "message" && kind == "message" {
				continue
			}
			if first, dup := seen[k+":"+x.Text]; dup {
				return fmt.Errorf("%s %s is declared twice (first at %s)", k, scan.Quote(x.Text), first)
			}
		}
		seen[kind+":"+x.Text] = x.Pos
	}
	switch kind {
	case "message":
		return sig.AddMessageAlias(text.Text, n.Text)
	case "lifeline":
		return sig.AddLifelineAlias(text.Text, n.Text)
	}
	return fmt.Errorf("gate %s: a gate has no alias (aliases are for lifelines and messages)", scan.Quote(n.Text))
}

// Resolve checks the names of the interaction n against the store's
// signature and builds its term, desugared as the package documentation says.
// file names n's source in errors.
func (s *Store) Resolve(file string, n *Node) (Term, error) {
	r := &resolver{s: s, file: file}
	return r.term(n)
}

type resolver struct {
	s    *Store
	file string
}

func (r *resolver) errorf(pos syntax.Pos, format string, args ...any) error {
	return &syntax.Error{File: r.file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (r *resolver) lifeline(n Name) (LifelineID, error) {
	if id, ok := r.s.sig.Lifeline(n.Text); ok {
		return id, nil
	}
	if r.s.sig.IsGate(n.Text) {
		return 0, r.errorf(n.Pos, "%q is a gate, not a lifeline", n.Text)
	}
	return 0, r.errorf(n.Pos, "undeclared lifeline %s (add it to @lifeline in the signature)", scan.Quote(n.Text))
}

func (r *resolver) message(n Name) (MessageID, error) {
	if id, ok := r.s.sig.Message(n.Text); ok {
		return id, nil
	}
	return 0, r.errorf(n.Pos, "undeclared message %s (add it to @message in the signature)", scan.Quote(n.Text))
}

// endpoint resolves a sender or receiver: a lifeline, or a gate (the
// environment, reported as ok=false).
func (r *resolver) endpoint(n Name) (LifelineID, bool, error) {
	if r.s.sig.IsGate(n.Text) {
		return 0, false, nil
	}
	if id, ok := r.s.sig.Lifeline(n.Text); ok {
		return id, true, nil
	}
	return 0, false, r.errorf(n.Pos, "undeclared lifeline or gate %s (add it to @lifeline or @gate in the signature)", scan.Quote(n.Text))
}

// action resolves an action written in a source file.
func (r *resolver) action(a ActionSyntax) (Action, error) {
	l, err := r.lifeline(a.Lifeline)
	if err != nil {
		return 0, err
	}
	m, err := r.message(a.Msg)
	if err != nil {
		return 0, err
	}
	return MakeAction(l, a.Kind, m), nil
}

func (r *resolver) term(n *Node) (Term, error) {
	s := r.s
	switch n.Kind {
	case NodeEmpty:
		return Empty, nil
	case NodeMessage:
		return r.messageTerm(n)
	case NodeLoop:
		body, err := r.term(n.Args[0])
		if err != nil {
			return 0, err
		}
		return s.Loop(n.Op, body), nil
	}
	args := make([]Term, len(n.Args))
	for i, a := range n.Args {
		t, err := r.term(a)
		if err != nil {
			return 0, err
		}
		args[i] = t
	}
	var build func(l, r Term) Term
	switch n.Kind {
	case NodeCoreg:
		var ls Lifelines
		for _, name := range n.Coreg {
			id, err := r.lifeline(name)
			if err != nil {
				return 0, err
			}
			ls = ls.Add(id)
		}
		build = func(a, b Term) Term { return s.Coreg(ls, a, b) }
	case NodeSync:
		acts := make([]Action, len(n.Sync))
		for i, a := range n.Sync {
			act, err := r.action(a)
			if err != nil {
				return 0, err
			}
			acts[i] = act
		}
		ma := NewMultiAction(acts...)
		build = func(a, b Term) Term { return s.Sync(ma, a, b) }
	default:
		op := n.Op
		build = func(a, b Term) Term { return s.Binary(op, a, b) }
	}
	return foldRight(args, build), nil
}

// foldRight nests an n-ary operator to the right: f(t1, f(t2, ... f(tn-1, tn))).
func foldRight(ts []Term, f func(l, r Term) Term) Term {
	acc := ts[len(ts)-1]
	for i := len(ts) - 2; i >= 0; i-- {
		acc = f(ts[i], acc)
	}
	return acc
}

// messageTerm desugars a message: see the package documentation.
func (r *resolver) messageTerm(n *Node) (Term, error) {
	s := r.s
	m, err := r.message(n.Msg)
	if err != nil {
		return 0, err
	}
	var sender *LifelineID
	if n.From != nil {
		id, ok, err := r.endpoint(*n.From)
		if err != nil {
			return 0, err
		}
		if ok {
			sender = &id
		}
	}
	var receivers []LifelineID
	seen := map[LifelineID]bool{}
	for _, to := range n.To {
		id, ok, err := r.endpoint(to)
		if err != nil {
			return 0, err
		}
		if !ok {
			continue
		}
		if n.Synch && seen[id] {
			return 0, r.errorf(to.Pos, "lifeline %q receives synchronous message %q twice", to.Text, n.Msg.Text)
		}
		seen[id] = true
		receivers = append(receivers, id)
	}
	if sender == nil && len(receivers) == 0 {
		return 0, r.errorf(n.Pos, "message %q has no lifeline at either end (only gates or the environment)", n.Msg.Text)
	}
	if n.Synch {
		var acts []Action
		if sender != nil {
			acts = append(acts, MakeAction(*sender, Emission, m))
		}
		for _, l := range receivers {
			acts = append(acts, MakeAction(l, Reception, m))
		}
		return s.Act(acts...), nil
	}
	var recv Term = Empty
	if len(receivers) > 0 {
		rs := make([]Term, len(receivers))
		for i, l := range receivers {
			rs[i] = s.Act(MakeAction(l, Reception, m))
		}
		recv = foldRight(rs, s.Seq)
	}
	if sender == nil {
		return recv, nil
	}
	emit := s.Act(MakeAction(*sender, Emission, m))
	if recv == Empty {
		return emit, nil
	}
	return s.Strict(emit, recv), nil
}
