package infer

import "github.com/ivc-project/ivc/interaction"

// node returns the syntax tree of e over sig's names: an item is a message
// (a -- m -> b; found: m -> b; lost: a -- m ->|), a seq or alt an n-ary
// operator, a loop loopW (weak sequencing between iterations, as UML's
// loop), nil ∅.
func node(a *alphabet, e *expr, sig *interaction.Signature) *interaction.Node {
	switch {
	case e == nil:
		return &interaction.Node{Kind: interaction.NodeEmpty}
	case e.loop:
		return &interaction.Node{Kind: interaction.NodeLoop, Op: interaction.OpLoopW, Args: []*interaction.Node{node(a, e.args[0], sig)}}
	case e.args != nil:
		n := &interaction.Node{Kind: interaction.NodeOp, Op: interaction.OpSeq}
		if e.alt {
			n.Op = interaction.OpAlt
		}
		for _, x := range e.args {
			n.Args = append(n.Args, node(a, x, sig))
		}
		return n
	}
	it := a.units[e.unit].item
	n := &interaction.Node{Kind: interaction.NodeMessage, Msg: interaction.Name{Text: sig.Messages[it.msg]}}
	if it.from != env {
		n.From = &interaction.Name{Text: sig.Lifelines[it.from]}
	}
	if it.to != env {
		n.To = []interaction.Name{{Text: sig.Lifelines[it.to]}}
	} else {
		n.ToEnv = true
	}
	return n
}

// appearance returns the signature of the names e uses, over those of
// sig, in order of appearance: a diagram's participants and messages as a
// reader meets them.
func appearance(a *alphabet, e *expr, sig *interaction.Signature) *interaction.Signature {
	out := &interaction.Signature{}
	var walk func(e *expr)
	walk = func(e *expr) {
		switch {
		case e == nil:
		case e.args != nil:
			for _, x := range e.args {
				walk(x)
			}
		default:
			it := a.units[e.unit].item
			for _, l := range []int{it.from, it.to} {
				if l == env {
					continue
				}
				if _, ok := out.Lifeline(sig.Lifelines[l]); !ok {
					out.AddLifeline(sig.Lifelines[l])
				}
			}
			if _, ok := out.Message(sig.Messages[it.msg]); !ok {
				out.AddMessage(sig.Messages[it.msg])
			}
		}
	}
	walk(e)
	return out
}
