package interaction

import (
	"strings"

	"github.com/ivc-project/ivc/syntax"
)

// Name is a label as written in a source file, with its position.
type Name struct {
	Text string
	Pos  syntax.Pos
}

// NodeKind is the kind of a syntax node of a .hif interaction.
type NodeKind uint8

const (
	NodeEmpty   NodeKind = iota // o or ∅
	NodeMessage                 // a -- m -> b, m -> b, a -- m ->|, with <synch>/<asynch>
	NodeOp                      // strict, seq, par, alt (n-ary)
	NodeCoreg                   // coreg(l1,l2)(i1,...)
	NodeSync                    // sync(a!m)(i1,...) or sync{a!m,b?m}(i1,...)
	NodeLoop                    // loopS, loopH, loopW, loopP
	NodeAct                     // a multi-action with no .hif syntax (printing terms only)
)

// Node is the syntax tree of an interaction as written in a .hif file (or in
// a legacy .hsf): names are unresolved, n-ary operators stay n-ary, message
// sugar stays sugar. Resolve turns it into a Term; Format prints it back.
type Node struct {
	Kind NodeKind
	Pos  syntax.Pos // first token of the node
	End  int        // the offset just after its last token, for a parsed node
	Op   Op         // NodeOp: OpStrict, OpSeq, OpPar or OpAlt; NodeLoop: the loop op
	Args []*Node    // operands, at least two for NodeOp/NodeCoreg/NodeSync, one for NodeLoop

	Coreg []Name         // NodeCoreg: the lifelines of the coregion
	Sync  []ActionSyntax // NodeSync: the synchronized actions

	// NodeMessage
	From  *Name  // sender lifeline or gate; nil for a reception from the environment
	Synch bool   // <synch>: all the message's actions form one multi-action (<asynch> is the default)
	Msg   Name   // the message
	To    []Name // receivers (lifelines or gates); empty for ->|
	ToEnv bool   // written ->|

	// NodeAct only: a multi-action that no message sugar writes (terms built
	// by the semantics may contain one); Format prints it as {a!m,b!n}.
	Acts []ActionSyntax

	// Comments are the source's comments kept with the node (nil when
	// none): Before it, After it on its last line, Inside it before its
	// closing parenthesis, Below it at the end of the file. The comments
	// inside a message go After it.
	Comments *syntax.Comments
}

// ActionSyntax is an action l!m or l?m as written, in a .hif sync operator.
type ActionSyntax struct {
	Lifeline Name
	Kind     Kind
	Msg      Name
}

// String returns the action as written: l!m or l?m, each name quoted when
// it is not an identifier.
func (a ActionSyntax) String() string {
	k := "?"
	if a.Kind == Emission {
		k = "!"
	}
	return syntax.QuoteName(a.Lifeline.Text) + k + syntax.QuoteName(a.Msg.Text)
}

// SigFile is a parsed .hsf file: the signature sections in source order and,
// for a legacy single-file .hsf (HIBOU ≤ 0.7), its option sections and
// interaction.
type SigFile struct {
	Sections    []SigSection
	Options     []OptionSection // legacy @analyze_option{...} etc., in source order
	Interaction *Node           // legacy: the interaction term, nil in a modern .hsf
}

// SigSection is one of @message{...}, @lifeline{...} or @gate{...}.
type SigSection struct {
	Kind  string // "message", "lifeline" or "gate"
	Pos   syntax.Pos
	End   int // the offset just after its closing '}'
	Names []Name
	// Texts holds, at the index of a name written as an alias (gateway =
	// "api-gateway"), the name it stands for; a zero Name at the index of
	// a name without alias. Nil when the section has no alias.
	Texts []Name
	// Comments are the source's comments kept with the section (nil when
	// none); those among its names are Inside it.
	Comments *syntax.Comments
}

// OptionSection locates an option section of a legacy .hsf in its source:
// Src[Start.Offset:End] is "@name{...}". Parse it with the hcf package.
type OptionSection struct {
	Name  string // e.g. "analyze_option"
	Start syntax.Pos
	End   int
	// Comments are the source's comments around the section (nil when
	// none); those inside it are the hcf parser's.
	Comments *syntax.Comments
}

// OperatorLabel names an operator node as a drawing labels its frame or
// block: "alt", "loopW", "coreg(a,b)", "sync(a!m,b?m)".
func (n *Node) OperatorLabel() string {
	switch n.Kind {
	case NodeCoreg:
		var names []string
		for _, c := range n.Coreg {
			names = append(names, c.Text)
		}
		return "coreg(" + strings.Join(names, ",") + ")"
	case NodeSync:
		return "sync(" + actionTexts(n.Sync) + ")"
	}
	return n.Op.String()
}

// ActionsLabel writes actions as a drawing labels a multi-action:
// "{a!m,b?m}".
func ActionsLabel(acts []ActionSyntax) string {
	return "{" + actionTexts(acts) + "}"
}

func actionTexts(acts []ActionSyntax) string {
	var b strings.Builder
	for i, a := range acts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(a.String())
	}
	return b.String()
}
