package diagram

import (
	"fmt"
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/syntax"
)

// blockKind is a kind of fragment (a block of statements).
type blockKind uint8

const (
	blockRoot     blockKind = iota // the diagram itself
	blockLoop                      // loop: loopW of its body (UML)
	blockAlt                       // alt/else: alt of its operands
	blockOpt                       // opt: alt of its body and ∅
	blockPar                       // par/and (Mermaid), par/else (PlantUML): par of its operands
	blockCritical                  // critical/option: alt of the region and its options
	blockBreak                     // break: alt of its body and the rest of the enclosing operand
	blockRect                      // rect (Mermaid), group (PlantUML): no meaning, its body
)

// item is a statement of a block's operand, read: a node, or a break whose
// body happens instead of the rest of the operand.
type item struct {
	node *interaction.Node
	brk  bool
}

// frame is a block being read.
type frame struct {
	kind     blockKind
	word     string // its keyword, for messages
	pos      syntax.Pos
	dir      *directive // its ivc annotation, nil when none
	sections [][]item   // its operands so far; the last is being read
}

// endpoint is one end of an arrow: a participant's id, or the diagram's
// border (PlantUML's [ and ]).
type endpoint struct {
	id     string
	border bool
	pos    syntax.Pos
}

// arrow is an arrow statement, as the readers of both notations parse it.
type arrow struct {
	from, to endpoint
	arrow    string // as written
	reply    bool
	text     string // the message, entities decoded
	textPos  syntax.Pos
}

// builder turns the statements of a diagram, in order, into its
// interaction: the part of reading both notations share.
type builder struct {
	d       *Diagram
	src     []byte
	opt     Options
	byID    map[string]int // participants by id
	byName  map[string]int // lifelines by display name, for annotations
	frames  []*frame
	pending []*directive // ivc annotations waiting for their statement
	box     string       // the label of the box being read ("" outside)
	inBox   bool

	// last is the message the last arrow made (nil after any other
	// statement), which a broadcast annotation extends.
	last     *interaction.Node
	lastFrom string
	// bare are the messages with no lifeline at either end so far (the
	// border, gates, the environment), in order: a broadcast's next arrow
	// may give one a lifeline; finish refuses those left.
	bare      []*interaction.Node
	selfNotes int
	firstSelf syntax.Pos
	// untitled counts the arrows without text, left out.
	untitled      int
	firstUntitled syntax.Pos
}

func newBuilder(file string, src []byte, n Notation, opt Options) *builder {
	b := &builder{d: &Diagram{File: file, Notation: n}, src: src, opt: opt, byID: map[string]int{}, byName: map[string]int{}}
	b.frames = []*frame{{kind: blockRoot, sections: [][]item{nil}}}
	return b
}

func (b *builder) errorf(pos syntax.Pos, format string, args ...any) error {
	return errorf(b.d.File, pos, format, args...)
}

func (b *builder) warnf(pos syntax.Pos, format string, args ...any) {
	b.d.Warnings = append(b.d.Warnings, errorf(b.d.File, pos, "warning: "+format, args...))
}

// take returns the pending annotations, checking that each applies to the
// statement what (a participant, an arrow, a block keyword) by allowed.
func (b *builder) take(what string, pos syntax.Pos, allowed func(d *directive) bool) ([]*directive, error) {
	ds := b.pending
	b.pending = nil
	for _, d := range ds {
		if allowed == nil || !allowed(d) {
			return nil, b.errorf(d.pos, "ivc: %s does not apply to the %s that follows it (line %d)", d.word, what, pos.Line)
		}
	}
	return ds, nil
}

// ignored records a statement that has no meaning (a note, an activation, a
// title...): no annotation may wait for it.
func (b *builder) ignored(what string, pos syntax.Pos) error {
	b.last = nil
	_, err := b.take(what, pos, nil)
	return err
}

// annotate records the annotation whose text, after "ivc:", is
// src[at.Offset:end].
func (b *builder) annotate(at syntax.Pos, end int) error {
	d, err := parseDirective(b.d.File, b.src[:end], at)
	if err != nil {
		return err
	}
	if d.word == "declare" {
		b.d.declared = append(b.d.declared, d.names...)
		return nil
	}
	b.pending = append(b.pending, d)
	return nil
}

// participant declares a participant (Shape set), or finds the one an arrow
// names (Shape ""), declaring it then.
func (b *builder) participant(p Participant) (int, error) {
	if i, ok := b.byID[p.ID]; ok {
		if p.Shape != "" {
			// Declared after an arrow implied it, or twice: the first
			// place counts, as the notations draw it, and the last
			// display name.
			if _, err := b.take("participant", p.Pos, nil); err != nil {
				return 0, err
			}
			if q := &b.d.Participants[i]; p.Name != p.ID && q.Kind == Lifeline {
				if msg := syntax.ValidName(p.Name); msg != "" {
					return 0, b.errorf(p.Pos, "participant %s: %s", p.ID, msg)
				}
				q.Name = p.Name
				if _, ok := b.byName[p.Name]; !ok {
					b.byName[p.Name] = i
				}
			}
		}
		return i, nil
	}
	if msg := syntax.ValidName(p.ID); msg != "" {
		return 0, b.errorf(p.Pos, "participant: %s", msg)
	}
	if msg := syntax.ValidName(p.Name); msg != "" {
		return 0, b.errorf(p.Pos, "participant %s: %s", p.ID, msg)
	}
	if p.Shape != "" {
		ds, err := b.take("participant", p.Pos, func(d *directive) bool { return d.word == "gate" || d.word == "env" })
		if err != nil {
			return 0, err
		}
		for _, d := range ds {
			if d.word == "gate" {
				p.Kind = Gate
			} else {
				p.Kind = Environment
			}
		}
	}
	if b.inBox {
		p.Box = b.box
	}
	i := len(b.d.Participants)
	b.byID[p.ID] = i
	if _, ok := b.byName[p.Name]; !ok && p.Kind == Lifeline {
		b.byName[p.Name] = i
	}
	b.d.Participants = append(b.d.Participants, p)
	return i, nil
}

// add appends a node to the operand being read.
func (b *builder) add(it item) {
	f := b.frames[len(b.frames)-1]
	s := &f.sections[len(f.sections)-1]
	*s = append(*s, it)
}

// message reads an arrow.
func (b *builder) message(a arrow) error {
	if a.text == "" {
		// An arrow without text: no message to name (a reply drawn
		// bare, often), left out with a warning.
		if b.untitled == 0 {
			b.firstUntitled = a.from.pos
		}
		b.untitled++
		return b.ignored("arrow without text", a.from.pos)
	}
	ds, err := b.take("arrow", a.from.pos, func(d *directive) bool {
		return d.word == "synch" || d.word == "broadcast" || d.word == "message"
	})
	if err != nil {
		return err
	}
	var synch, broadcast, self *directive
	for _, d := range ds {
		switch d.word {
		case "synch":
			synch = d
		case "broadcast":
			broadcast = d
		case "message":
			self = d
		}
	}
	if msg := syntax.ValidName(a.text); msg != "" {
		return b.errorf(a.textPos, "message: %s", msg)
	}
	from, fromEnv, err := b.end(a.from)
	if err != nil {
		return err
	}
	to, toEnv, err := b.end(a.to)
	if err != nil {
		return err
	}
	msg := interaction.Name{Text: a.text, Pos: a.textPos}
	rec := Message{Arrow: a.arrow, Reply: a.reply, Pos: a.from.pos}
	if broadcast != nil {
		prev := b.last
		switch {
		case prev == nil:
			return b.errorf(broadcast.pos, "ivc: broadcast: no message right before this arrow to broadcast")
		case prev.Msg.Text != a.text || b.lastFrom != a.from.id || fromEnv != (prev.From == nil):
			return b.errorf(broadcast.pos, "ivc: broadcast: this arrow is not message %q of the arrow before it, from the same sender", prev.Msg.Text)
		case toEnv || prev.ToEnv:
			return b.errorf(broadcast.pos, "ivc: broadcast: a broadcast cannot also go to the environment")
		case synch != nil:
			return b.errorf(synch.pos, "ivc: synch: a broadcast is synchronous when its first arrow is")
		}
		if prev.Synch && slices.ContainsFunc(prev.To, func(n interaction.Name) bool { return n.Text == to.Text }) {
			return b.errorf(a.to.pos, "ivc: broadcast: %s receives synchronous message %q twice", to.Text, a.text)
		}
		prev.To = append(prev.To, to)
		if n := len(b.bare); n > 0 && b.bare[n-1] == prev && b.isLifeline(a.to, toEnv) {
			b.bare = b.bare[:n-1]
		}
		rec.Node = prev
		b.d.Messages = append(b.d.Messages, rec)
		return nil
	}
	isSelf := !toEnv && b.isLifeline(a.from, fromEnv) && from.Text == to.Text
	switch {
	case self != nil && !isSelf:
		return b.errorf(self.pos, "ivc: message applies to a self-message (an arrow from a lifeline to itself)")
	case isSelf && self == nil && !b.opt.SelfMessages:
		if b.selfNotes == 0 {
			b.firstSelf = a.from.pos
		}
		b.selfNotes++
		b.last = nil
		return nil
	}
	n := &interaction.Node{Kind: interaction.NodeMessage, Pos: a.from.pos, Msg: msg, Synch: synch != nil}
	if !fromEnv {
		n.From = &from
	}
	if toEnv {
		n.ToEnv = true
	} else {
		n.To = []interaction.Name{to}
	}
	rec.Node = n
	b.d.Messages = append(b.d.Messages, rec)
	if !b.isLifeline(a.from, fromEnv) && !b.isLifeline(a.to, toEnv) {
		b.bare = append(b.bare, n)
	}
	b.add(item{node: n})
	b.last, b.lastFrom = n, a.from.id
	return nil
}

// end resolves an endpoint: the name the interaction gives it, or env for
// the environment (the border, an environment participant).
func (b *builder) end(e endpoint) (name interaction.Name, env bool, err error) {
	if e.border {
		return interaction.Name{}, true, nil
	}
	i, err := b.participant(Participant{ID: e.id, Name: e.id, Pos: e.pos})
	if err != nil {
		return interaction.Name{}, false, err
	}
	p := b.d.Participants[i]
	switch p.Kind {
	case Environment:
		return interaction.Name{}, true, nil
	case Gate:
		return interaction.Name{Text: p.Name, Pos: e.pos}, false, nil
	}
	return interaction.Name{Text: p.ID, Pos: e.pos}, false, nil
}

// isLifeline reports whether the endpoint e, resolved by end (env is
// what end said), is a lifeline rather than the border, the environment
// or a gate.
func (b *builder) isLifeline(e endpoint, env bool) bool {
	return !env && b.d.Participants[b.byID[e.id]].Kind == Lifeline
}

// lifeline finds the lifeline an annotation names, by id or by name.
func (b *builder) lifeline(n interaction.Name) (interaction.Name, error) {
	i, ok := b.byID[n.Text]
	if !ok {
		i, ok = b.byName[n.Text]
	}
	if !ok || b.d.Participants[i].Kind != Lifeline {
		return n, b.errorf(n.Pos, "ivc: no lifeline %s in the diagram (name a participant by its id or its name)", syntax.QuoteName(n.Text))
	}
	return interaction.Name{Text: b.d.Participants[i].ID, Pos: n.Pos}, nil
}

// open starts a block.
func (b *builder) open(kind blockKind, word string, pos syntax.Pos) error {
	b.last = nil
	ds, err := b.take(word, pos, func(d *directive) bool {
		switch kind {
		case blockLoop:
			return d.loop != 0
		case blockAlt, blockPar, blockCritical, blockRect:
			return d.word == "strict" || d.word == "coreg" || d.word == "sync"
		}
		return false
	})
	if err != nil {
		return err
	}
	if len(ds) > 1 {
		return b.errorf(ds[1].pos, "ivc: %s: a block takes one annotation (here after ivc: %s)", ds[1].word, ds[0].word)
	}
	if len(b.frames) > interaction.MaxNesting {
		return b.errorf(pos, "blocks nested more than %d deep", interaction.MaxNesting)
	}
	f := &frame{kind: kind, word: word, pos: pos, sections: [][]item{nil}}
	if len(ds) == 1 {
		f.dir = ds[0]
	}
	b.frames = append(b.frames, f)
	return nil
}

// section starts the next operand of the open block, at its separator word
// (else, and, option), which the block must be one of kinds to take.
func (b *builder) section(word string, pos syntax.Pos, kinds ...blockKind) error {
	if err := b.ignored(word, pos); err != nil {
		return err
	}
	f := b.frames[len(b.frames)-1]
	for _, k := range kinds {
		if f.kind == k {
			f.sections = append(f.sections, nil)
			return nil
		}
	}
	if f.kind == blockRoot {
		return b.errorf(pos, "%s outside a block", word)
	}
	return b.errorf(pos, "%s in a %s block (at line %d)", word, f.word, f.pos.Line)
}

// close ends the open block at its end.
func (b *builder) close(pos syntax.Pos) error {
	if err := b.ignored("end", pos); err != nil {
		return err
	}
	if len(b.frames) == 1 {
		return b.errorf(pos, "end of no block")
	}
	f := b.frames[len(b.frames)-1]
	b.frames = b.frames[:len(b.frames)-1]
	n, err := b.blockNode(f)
	if err != nil {
		return err
	}
	switch {
	case f.kind == blockBreak:
		b.add(item{node: n, brk: true})
	case f.kind == blockRect && f.dir == nil && !b.annotatedParent():
		// No meaning: its statements are the enclosing operand's (but
		// in a block annotated strict, where each statement is an
		// operand, a rect is one).
		if n.Kind == interaction.NodeOp && n.Op == interaction.OpSeq {
			for _, a := range n.Args {
				b.add(item{node: a})
			}
		} else if n.Kind != interaction.NodeEmpty {
			b.add(item{node: n})
		}
	default:
		b.add(item{node: n})
	}
	return nil
}

// annotatedParent reports whether the open block is annotated strict,
// coreg or sync: its statements are its operands.
func (b *builder) annotatedParent() bool {
	f := b.frames[len(b.frames)-1]
	return f.dir != nil && f.dir.loop == 0 && len(f.sections) == 1
}

// blockNode is the interaction of a block.
func (b *builder) blockNode(f *frame) (*interaction.Node, error) {
	if f.dir != nil && f.dir.loop == 0 {
		return b.annotated(f)
	}
	ops := make([]*interaction.Node, len(f.sections))
	for i, s := range f.sections {
		ops[i] = seqOf(s, f.pos)
	}
	switch f.kind {
	case blockLoop:
		op := interaction.OpLoopW
		if f.dir != nil {
			op = f.dir.loop
		}
		return &interaction.Node{Kind: interaction.NodeLoop, Op: op, Pos: f.pos, Args: ops[:1]}, nil
	case blockOpt, blockBreak:
		if len(ops) > 1 { // PlantUML's opt ... else: an alt
			return opNode(interaction.OpAlt, f.pos, ops...), nil
		}
		return opNode(interaction.OpAlt, f.pos, ops[0], empty(f.pos)), nil
	case blockAlt:
		if len(ops) == 1 { // no else: the body or nothing, as opt
			ops = append(ops, empty(f.pos))
		}
		return opNode(interaction.OpAlt, f.pos, ops...), nil
	case blockCritical:
		b.warnf(f.pos, "critical read as an alt of its region and its options: ivc does not check that the region is not interleaved")
		return opNode(interaction.OpAlt, f.pos, ops...), nil
	case blockPar:
		return opNode(interaction.OpPar, f.pos, ops...), nil
	}
	return ops[0], nil // rect
}

// annotated is the interaction of a block annotated strict, coreg(L) or
// sync(A): the operator over its operands, which are its sections when it
// has separators, else the statements of its body.
func (b *builder) annotated(f *frame) (*interaction.Node, error) {
	var ops []*interaction.Node
	if len(f.sections) > 1 {
		for _, s := range f.sections {
			ops = append(ops, seqOf(s, f.pos))
		}
	} else {
		for _, it := range f.sections[0] {
			if it.brk {
				return nil, b.errorf(it.node.Pos, "break in a block annotated ivc: %s (at line %d): its operands are its statements", f.dir.word, f.dir.pos.Line)
			}
			ops = append(ops, it.node)
		}
	}
	if len(ops) < 2 {
		if len(ops) == 0 {
			return empty(f.pos), nil
		}
		return ops[0], nil
	}
	n := &interaction.Node{Pos: f.pos, Args: ops}
	switch f.dir.word {
	case "strict":
		n.Kind, n.Op = interaction.NodeOp, interaction.OpStrict
	case "coreg":
		n.Kind, n.Op = interaction.NodeCoreg, interaction.OpCoreg
		for _, name := range f.dir.names {
			l, err := b.lifeline(name)
			if err != nil {
				return nil, err
			}
			n.Coreg = append(n.Coreg, l)
		}
	case "sync":
		n.Kind, n.Op = interaction.NodeSync, interaction.OpSync
		for _, a := range f.dir.acts {
			l, err := b.lifeline(a.Lifeline)
			if err != nil {
				return nil, err
			}
			a.Lifeline = l
			n.Sync = append(n.Sync, a)
		}
	}
	return n, nil
}

// seqOf is the interaction of an operand: its statements weakly sequenced
// (UML's seq), a break's body in alternative to the statements after it.
func seqOf(items []item, pos syntax.Pos) *interaction.Node {
	var rev []*interaction.Node // the operands after items[i], last first
	for i := len(items) - 1; i >= 0; i-- {
		if !items[i].brk {
			rev = append(rev, items[i].node)
			continue
		}
		rest := make([]*interaction.Node, len(rev))
		for k, n := range rev {
			rest[len(rev)-1-k] = n
		}
		brk := items[i].node // alt(body, ∅): the body is its first operand
		brk.Args[1] = seqNodes(rest, brk.Pos)
		rev = []*interaction.Node{brk}
	}
	ops := make([]*interaction.Node, len(rev))
	for k, n := range rev {
		ops[len(rev)-1-k] = n
	}
	return seqNodes(ops, pos)
}

// seqNodes is seq of ops: ∅ for none, the operand itself for one.
func seqNodes(ops []*interaction.Node, pos syntax.Pos) *interaction.Node {
	switch len(ops) {
	case 0:
		return empty(pos)
	case 1:
		return ops[0]
	}
	return &interaction.Node{Kind: interaction.NodeOp, Op: interaction.OpSeq, Pos: ops[0].Pos, Args: ops}
}

// opNode is op of ops, or the operand itself when there is one.
func opNode(op interaction.Op, pos syntax.Pos, ops ...*interaction.Node) *interaction.Node {
	if len(ops) == 1 {
		return ops[0]
	}
	return &interaction.Node{Kind: interaction.NodeOp, Op: op, Pos: pos, Args: ops}
}

func empty(pos syntax.Pos) *interaction.Node {
	return &interaction.Node{Kind: interaction.NodeEmpty, Pos: pos}
}

// closeAll closes the blocks left open at pos, the end of the diagram,
// each with a warning, as PlantUML does.
func (b *builder) closeAll(pos syntax.Pos) error {
	for len(b.frames) > 1 {
		f := b.frames[len(b.frames)-1]
		b.warnf(f.pos, "%s is not closed by end: closed at the end of the diagram", f.word)
		if err := b.close(pos); err != nil {
			return err
		}
	}
	if b.inBox {
		b.inBox, b.box = false, ""
	}
	return nil
}

// finish checks that every block ended and builds the diagram.
func (b *builder) finish(blk block) (*Diagram, error) {
	if len(b.pending) > 0 {
		d := b.pending[0]
		return nil, b.errorf(d.pos, "ivc: %s: no statement follows it", d.word)
	}
	if b.inBox {
		return nil, b.errorf(blk.pos, "a box is not closed by end")
	}
	if len(b.frames) > 1 {
		f := b.frames[len(b.frames)-1]
		return nil, b.errorf(f.pos, "%s is not closed by end", f.word)
	}
	if len(b.bare) > 0 {
		n := b.bare[0]
		return nil, b.errorf(n.Pos, "message %q has no lifeline at either end (only the border, gates or the environment)", n.Msg.Text)
	}
	d := b.d
	d.Root = seqOf(b.frames[0].sections[0], blk.pos)
	if b.selfNotes > 0 {
		what := "a self-message"
		if b.selfNotes > 1 {
			what = fmt.Sprintf("%d self-messages (the first here)", b.selfNotes)
		}
		b.warnf(b.firstSelf, "%s read as a note: traces hold no event for internal work (--self-messages message reads self-messages as messages)", what)
	}
	if b.untitled > 0 {
		what := "an arrow"
		if b.untitled > 1 {
			what = fmt.Sprintf("%d arrows (the first here)", b.untitled)
		}
		b.warnf(b.firstUntitled, "%s without text left out: ivc names a message by its text", what)
	}
	hasLifeline := false
	named := map[string]int{}
	for i, p := range d.Participants {
		if p.Kind != Lifeline {
			continue
		}
		hasLifeline = true
		if j, dup := named[p.Name]; dup {
			q := d.Participants[j]
			return nil, b.errorf(p.Pos, "participant %s is drawn as %q, as participant %s is (line %d): two lifelines cannot have one name", p.ID, p.Name, q.ID, q.Pos.Line)
		}
		named[p.Name] = i
	}
	for _, p := range d.Participants {
		if j, ok := named[p.ID]; ok && d.Participants[j].ID != p.ID {
			q := d.Participants[j]
			return nil, b.errorf(p.Pos, "participant %s is the name of participant %s (line %d): name it otherwise", p.ID, q.ID, q.Pos.Line)
		}
	}
	if !hasLifeline {
		return nil, b.errorf(blk.pos, "no participant: a diagram needs at least one lifeline")
	}
	return d, nil
}
