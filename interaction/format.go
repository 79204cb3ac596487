package interaction

import (
	"bytes"
	"strings"

	"github.com/ivc-project/ivc/internal/scan"
	"github.com/ivc-project/ivc/syntax"
)

// maxIndent bounds the indentation of printed terms, so that printing a
// pathologically deep term stays linear in its size.
const maxIndent = 64

// FormatHIF prints an interaction in canonical .hif form: one operand per
// line, tab indentation, "o" for ∅, <asynch> omitted. The comments that
// ParseHIF kept with the nodes are printed back around them.
func FormatHIF(n *Node) []byte {
	var b bytes.Buffer
	writeLine(&b, n, 0, "")
	return b.Bytes()
}

// writeLine writes n at depth on lines of its own, followed by sep (a
// separator, or ""), with its comments.
func writeLine(b *bytes.Buffer, n *Node, depth int, sep string) {
	c := n.Comments
	if c != nil {
		scan.WriteLines(b, c.Before, tabs(depth))
	}
	indent(b, depth)
	writeNode(b, n, depth)
	b.WriteString(sep)
	if c != nil {
		scan.WriteAfter(b, c.After)
	}
	b.WriteByte('\n')
	if c != nil {
		scan.WriteLines(b, c.Below, tabs(depth))
	}
}

func indent(b *bytes.Buffer, depth int) {
	for i := 0; i < min(depth, maxIndent); i++ {
		b.WriteByte('\t')
	}
}

// tabs returns the indentation of depth.
func tabs(depth int) string { return strings.Repeat("\t", min(depth, maxIndent)) }

func writeNames(b *bytes.Buffer, names []Name) {
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		writeName(b, n.Text)
	}
}

// writeName writes a name bare, or quoted when it is not an identifier.
func writeName(b *bytes.Buffer, name string) {
	var buf [64]byte
	b.Write(syntax.AppendName(buf[:0], name))
}

func writeActionSyntax(b *bytes.Buffer, a ActionSyntax) {
	writeName(b, a.Lifeline.Text)
	if a.Kind == Emission {
		b.WriteByte('!')
	} else {
		b.WriteByte('?')
	}
	writeName(b, a.Msg.Text)
}

func writeNode(b *bytes.Buffer, n *Node, depth int) {
	switch n.Kind {
	case NodeEmpty:
		b.WriteString("o")
		return
	case NodeMessage:
		if n.From != nil {
			writeName(b, n.From.Text)
			b.WriteString(" -- ")
		}
		if n.Synch {
			b.WriteString("<synch>")
		}
		writeName(b, n.Msg.Text)
		switch {
		case n.ToEnv:
			b.WriteString(" ->|")
		case len(n.To) == 1:
			b.WriteString(" -> ")
			writeName(b, n.To[0].Text)
		default:
			b.WriteString(" -> (")
			writeNames(b, n.To)
			b.WriteByte(')')
		}
		return
	case NodeAct:
		b.WriteByte('{')
		for i, a := range n.Acts {
			if i > 0 {
				b.WriteByte(',')
			}
			writeActionSyntax(b, a)
		}
		b.WriteByte('}')
		return
	case NodeCoreg:
		b.WriteString("coreg(")
		writeNames(b, n.Coreg)
		b.WriteByte(')')
	case NodeSync:
		b.WriteString("sync")
		if len(n.Sync) == 1 {
			b.WriteByte('(')
			writeActionSyntax(b, n.Sync[0])
			b.WriteByte(')')
		} else {
			b.WriteByte('{')
			for i, a := range n.Sync {
				if i > 0 {
					b.WriteByte(',')
				}
				writeActionSyntax(b, a)
			}
			b.WriteByte('}')
		}
	default:
		b.WriteString(n.Op.String())
	}
	b.WriteString("(\n")
	for i, a := range n.Args {
		sep := ","
		if i == len(n.Args)-1 {
			sep = ""
		}
		writeLine(b, a, depth+1, sep)
	}
	if n.Comments != nil {
		scan.WriteLines(b, n.Comments.Inside, tabs(depth+1))
	}
	indent(b, depth)
	b.WriteByte(')')
}

// FormatHSF prints the signature sections of f in canonical form, in their
// source order, followed by the interaction of a legacy file. Option sections
// of a legacy file are not printed: the hcf package formats them.
func FormatHSF(f *SigFile) []byte {
	var b bytes.Buffer
	for _, sec := range f.Sections {
		c := sec.Comments
		if c == nil {
			c = &syntax.Comments{}
		}
		scan.WriteLines(&b, c.Before, "")
		b.WriteString("@" + sec.Kind + "{\n")
		scan.WriteLines(&b, c.Inside, "\t")
		b.WriteByte('\t')
		for i, n := range sec.Names {
			if i > 0 {
				b.WriteByte(';')
			}
			writeName(&b, n.Text)
			if i < len(sec.Texts) && sec.Texts[i].Text != "" {
				b.WriteString(" = ")
				writeName(&b, sec.Texts[i].Text)
			}
		}
		b.WriteString("\n}")
		scan.WriteAfter(&b, c.After)
		b.WriteByte('\n')
		scan.WriteLines(&b, c.Below, "")
	}
	if f.Interaction != nil {
		writeLine(&b, f.Interaction, 0, "")
	}
	return b.Bytes()
}

// FormatSignature prints sig as a canonical .hsf file.
func FormatSignature(sig *Signature) []byte {
	f := &SigFile{}
	add := func(kind string, names, aliases []string) {
		if len(names) == 0 {
			return
		}
		sec := SigSection{Kind: kind}
		for i, n := range names {
			if aliases != nil {
				// An alias is written first: alias = "name".
				if aliases[i] != "" {
					sec.Names = append(sec.Names, Name{Text: aliases[i]})
					sec.Texts = append(sec.Texts, Name{Text: n})
					continue
				}
				sec.Texts = append(sec.Texts, Name{})
			}
			sec.Names = append(sec.Names, Name{Text: n})
		}
		f.Sections = append(f.Sections, sec)
	}
	add("message", sig.Messages, sig.MessageAliases)
	add("lifeline", sig.Lifelines, sig.LifelineAliases)
	add("gate", sig.Gates, nil)
	return FormatHSF(f)
}

// Syntax returns the syntax tree of t with the message sugar of .hif files
// and n-ary operators restored, so that FormatHIF(s.Syntax(t)) parses back to
// t. Multi-actions that no sugar writes become NodeAct nodes.
func (s *Store) Syntax(t Term) *Node {
	n := s.nodes[t]
	switch {
	case n.op == OpEmpty:
		return &Node{Kind: NodeEmpty}
	case n.op == OpAct:
		return s.actSyntax(s.acts[n.aux])
	case n.op.IsLoop():
		return &Node{Kind: NodeLoop, Op: n.op, Args: []*Node{s.Syntax(n.left)}}
	}
	if msg := s.messageSyntax(t); msg != nil {
		return msg
	}
	out := &Node{Op: n.op}
	switch n.op {
	case OpCoreg:
		out.Kind = NodeCoreg
		for l := range s.sets[n.aux].All() {
			out.Coreg = append(out.Coreg, s.name(l))
		}
	case OpSync:
		out.Kind = NodeSync
		for _, a := range s.acts[n.aux] {
			out.Sync = append(out.Sync, s.actionSyntax(a))
		}
	default:
		out.Kind = NodeOp
	}
	// Flatten the right spine: op(x, op(y, z)) is written op(x, y, z),
	// unless op(y, z) is itself a message (a chain of receptions).
	spine := []Term{t}
	for {
		r := s.nodes[spine[len(spine)-1]].right
		if rn := s.nodes[r]; rn.op != n.op || rn.aux != n.aux {
			break
		}
		spine = append(spine, r)
	}
	stop := s.firstMessage(spine)
	for _, c := range spine[:stop] {
		out.Args = append(out.Args, s.Syntax(s.nodes[c].left))
	}
	if stop < len(spine) {
		out.Args = append(out.Args, s.Syntax(spine[stop]))
	} else {
		out.Args = append(out.Args, s.Syntax(s.nodes[spine[stop-1]].right))
	}
	return out
}

// firstMessage returns the least i ≥ 1 such that spine[i] is written as a
// message (see messageSyntax), or len(spine) if there is none. spine is a
// right spine: spine[i+1] is the right operand of spine[i]. Suffixes of a
// seq spine are checked from the end, so that a long chain of receptions
// costs linear time, not quadratic.
func (s *Store) firstMessage(spine []Term) int {
	if s.nodes[spine[0]].op != OpSeq {
		for i := 1; i < len(spine); i++ {
			if s.messageSyntax(spine[i]) != nil {
				return i
			}
		}
		return len(spine)
	}
	// chain: spine[i] is a chain of receptions of message m, and so a message.
	stop := len(spine)
	chain, m := false, MessageID(0)
	for i := len(spine) - 1; i >= 1; i-- {
		c := s.nodes[spine[i]]
		lm, ok := s.reception(c.left)
		if i == len(spine)-1 {
			rm, rok := s.reception(c.right)
			chain = ok && rok && rm == lm
		} else {
			chain = chain && ok && lm == m
		}
		m = lm
		if chain {
			stop = i
		}
	}
	return stop
}

// reception returns the message of t if t is a single reception l?m.
func (s *Store) reception(t Term) (MessageID, bool) {
	n := s.nodes[t]
	if n.op != OpAct {
		return 0, false
	}
	acts := s.acts[n.aux]
	if len(acts) != 1 || acts[0].Kind() != Reception {
		return 0, false
	}
	return acts[0].Message(), true
}

func (s *Store) name(l LifelineID) Name { return Name{Text: s.sig.LifelineAlias(l)} }

// message returns the name of m as a .hif writes it: its alias, if any.
func (s *Store) message(m MessageID) Name { return Name{Text: s.sig.MessageAlias(m)} }

func (s *Store) actionSyntax(a Action) ActionSyntax {
	return ActionSyntax{Lifeline: s.name(a.Lifeline()), Kind: a.Kind(), Msg: s.message(a.Message())}
}

// actSyntax writes a leaf: a -- m ->|, m -> b, or a <synch> message.
func (s *Store) actSyntax(m MultiAction) *Node {
	msg := m[0].Message()
	var from *Name
	var to []Name
	for _, a := range m {
		if a.Message() != msg {
			return s.rawAct(m)
		}
		if a.Kind() == Emission {
			if from != nil {
				return s.rawAct(m)
			}
			n := s.name(a.Lifeline())
			from = &n
		} else {
			to = append(to, s.name(a.Lifeline()))
		}
	}
	return &Node{Kind: NodeMessage, From: from, Synch: len(m) > 1, Msg: s.message(msg),
		To: to, ToEnv: len(to) == 0}
}

func (s *Store) rawAct(m MultiAction) *Node {
	n := &Node{Kind: NodeAct}
	for _, a := range m {
		n.Acts = append(n.Acts, s.actionSyntax(a))
	}
	return n
}

// receptionChain returns the receivers of t if t is a reception l?m or a
// right-nested seq of receptions of message m; ok is false otherwise.
func (s *Store) receptionChain(t Term, m MessageID) (to []Name, ok bool) {
	for {
		n := s.nodes[t]
		switch n.op {
		case OpAct:
			acts := s.acts[n.aux]
			if len(acts) != 1 || acts[0].Kind() != Reception || acts[0].Message() != m {
				return nil, false
			}
			return append(to, s.name(acts[0].Lifeline())), true
		case OpSeq:
			l := s.nodes[n.left]
			if l.op != OpAct {
				return nil, false
			}
			acts := s.acts[l.aux]
			if len(acts) != 1 || acts[0].Kind() != Reception || acts[0].Message() != m {
				return nil, false
			}
			to = append(to, s.name(acts[0].Lifeline()))
			t = n.right
		default:
			return nil, false
		}
	}
}

// messageSyntax recognizes the desugared forms of asynchronous messages:
// strict(a!m, R) and a chain R of receptions of m (at least two of them).
func (s *Store) messageSyntax(t Term) *Node {
	n := s.nodes[t]
	switch n.op {
	case OpStrict:
		l := s.nodes[n.left]
		if l.op != OpAct {
			return nil
		}
		acts := s.acts[l.aux]
		if len(acts) != 1 || acts[0].Kind() != Emission {
			return nil
		}
		to, ok := s.receptionChain(n.right, acts[0].Message())
		if !ok {
			return nil
		}
		from := s.name(acts[0].Lifeline())
		return &Node{Kind: NodeMessage, From: &from, Msg: s.message(acts[0].Message()), To: to}
	case OpSeq:
		l := s.nodes[n.left]
		if l.op != OpAct {
			return nil
		}
		acts := s.acts[l.aux]
		if len(acts) != 1 || acts[0].Kind() != Reception {
			return nil
		}
		to, ok := s.receptionChain(t, acts[0].Message())
		if !ok {
			return nil
		}
		return &Node{Kind: NodeMessage, Msg: s.message(acts[0].Message()), To: to}
	}
	return nil
}

// FormatTerm prints t as canonical .hif text (see Syntax).
func (s *Store) FormatTerm(t Term) string {
	return strings.TrimSuffix(string(FormatHIF(s.Syntax(t))), "\n")
}
