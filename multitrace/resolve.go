package multitrace

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/syntax"
)

// MultiTrace is a multi-trace resolved against a signature: one local trace
// per location, its component. The components' lifeline sets partition the
// lifelines of the signature.
type MultiTrace struct {
	Components []Component
}

// Component is the local trace of a location (a set of lifelines that
// share a clock), with that location. Each event is a sorted multi-action,
// usually of length 1.
type Component struct {
	Lifelines interaction.Lifelines
	Trace     []interaction.MultiAction
}

// Len returns the number of events of all components.
func (mt *MultiTrace) Len() int {
	n := 0
	for _, c := range mt.Components {
		n += len(c.Trace)
	}
	return n
}

// Locations returns the locations of mt: the lifelines of each component.
func (mt *MultiTrace) Locations() interaction.Locations {
	p := make(interaction.Locations, len(mt.Components))
	for i, c := range mt.Components {
		p[i] = c.Lifelines
	}
	return p
}

// Clone returns a copy of mt that shares no memory with it.
func (mt *MultiTrace) Clone() *MultiTrace {
	n, acts := 0, 0
	for _, c := range mt.Components {
		n += len(c.Trace)
		for _, e := range c.Trace {
			acts += len(e)
		}
	}
	out := &MultiTrace{Components: make([]Component, len(mt.Components))}
	trace, all := make([]interaction.MultiAction, 0, n), make([]interaction.Action, 0, acts)
	for i, c := range mt.Components {
		from := len(trace)
		for _, e := range c.Trace {
			at := len(all)
			all = append(all, e...)
			trace = append(trace, all[at:len(all):len(all)])
		}
		out.Components[i] = Component{Lifelines: c.Lifelines, Trace: trace[from:len(trace):len(trace)]}
	}
	return out
}

// Equal reports whether mt and o have the same components, in the same
// order, with the same traces.
func (mt *MultiTrace) Equal(o *MultiTrace) bool {
	if len(mt.Components) != len(o.Components) {
		return false
	}
	for i, c := range mt.Components {
		d := o.Components[i]
		if c.Lifelines != d.Lifelines || len(c.Trace) != len(d.Trace) {
			return false
		}
		for j, e := range c.Trace {
			if !slices.Equal(e, d.Trace[j]) {
				return false
			}
		}
	}
	return true
}

// Format prints mt in the canonical form of the package-level Format, with
// every component and its lifelines listed explicitly, using the names of
// sig (the signature mt was resolved against).
func (mt *MultiTrace) Format(sig *interaction.Signature) []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, c := range mt.Components {
		b.WriteString("\t[")
		b.WriteString(c.Lifelines.Format(sig))
		b.WriteString("] ")
		for j, e := range c.Trace {
			if j > 0 {
				b.WriteByte('.')
			}
			if len(e) != 1 {
				b.WriteByte('{')
			}
			for k, a := range e {
				if k > 0 {
					b.WriteByte(',')
				}
				var buf [64]byte
				b.Write(a.AppendFormat(buf[:0], sig))
			}
			if len(e) != 1 {
				b.WriteByte('}')
			}
		}
		if len(c.Trace) == 0 || i < len(mt.Components)-1 {
			b.WriteByte(';')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// DefaultMaxFileSize is the size limit of Read: 4 GiB.
const DefaultMaxFileSize = syntax.DefaultMaxFileSize

// Read reads the .htf file at path and resolves it against sig, as
// ReadLimit does with the limit DefaultMaxFileSize.
func Read(path string, sig *interaction.Signature) (*MultiTrace, error) {
	return ReadLimit(path, sig, DefaultMaxFileSize)
}

// ReadLimit reads the .htf file at path, of at most max bytes
// (DefaultMaxFileSize when max is 0 or less), and resolves it against sig.
// It reads as syntax.ReadFileLimit does: regular files only (a symbolic
// link is followed), or standard input when path is "-"; a device, a named
// pipe or a larger file is an error naming it ("run.htf: not a regular
// file ...", its *fs.PathError kept for errors.As), rather than a read that
// never ends or exhausts the memory.
func ReadLimit(path string, sig *interaction.Signature, max int64) (*MultiTrace, error) {
	src, err := syntax.ReadFileLimit(path, max)
	if err != nil {
		return nil, err
	}
	return ParseResolve(path, src, sig)
}

// ParseResolve parses a .htf file and resolves it against sig in one pass,
// without building its syntax: it gives the same result and the same error
// as Parse followed by File.Resolve, faster and with less memory.
func ParseResolve(file string, src []byte, sig *interaction.Signature) (*MultiTrace, error) {
	r := newResolver(file, sig)
	p := newParser(file, src, r)
	r.names = &p.names
	if err := p.parse(); err != nil {
		return nil, err
	}
	return &r.mt, nil
}

// Resolve checks f against sig and returns its multi-trace:
//
//   - components keep their order in the file; [#any] has the lifelines
//     its actions occur on, [#all] every lifeline that no other component
//     has (wherever it is in the file);
//   - every lifeline of sig that no component has gets an empty component
//     of its own, appended in signature order;
//   - each event becomes a sorted interaction.MultiAction.
//
// Errors, at the position of the offending name or action: undeclared
// lifelines and messages, gates used as lifelines, an action on a lifeline
// outside its component, a lifeline listed twice or in two components, an
// action repeated in a multi-action, more than one [#all], an [#all] with no
// lifeline left and an empty [#any] (whose lifelines cannot be inferred).
// file names the source in errors.
func (f *File) Resolve(file string, sig *interaction.Signature) (*MultiTrace, error) {
	var in interner
	r := newResolver(file, sig)
	r.names = &in.names
	for _, c := range f.Components {
		if c.Kind > All {
			return nil, r.errorf(c.Pos, "component of unknown kind %d", c.Kind)
		}
		if c.Kind == Explicit && len(c.Lifelines) == 0 {
			return nil, r.errorf(c.Pos, "component lists no lifeline")
		}
		if err := r.component(c.Pos, c.Kind); err != nil {
			return nil, err
		}
		for _, n := range c.Lifelines {
			if err := r.lifeline(in.intern(n.Text), n.Pos); err != nil {
				return nil, err
			}
		}
		if len(c.Trace) > 0 {
			r.reserve(len(c.Trace))
		}
		for _, e := range c.Trace {
			if len(e.Acts) == 0 {
				return nil, r.errorf(e.Pos, "event with no action")
			}
			if len(e.Acts) == 1 {
				if err := r.single(in.ref(e.Acts[0])); err != nil {
					return nil, err
				}
				continue
			}
			for _, a := range e.Acts {
				if err := r.action(in.ref(a)); err != nil {
					return nil, err
				}
			}
			if err := r.event(e.Pos); err != nil {
				return nil, err
			}
		}
		if err := r.endComponent(); err != nil {
			return nil, err
		}
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	return &r.mt, nil
}

func (in *interner) ref(a interaction.ActionSyntax) actionRef {
	return actionRef{l: in.intern(a.Lifeline.Text), m: in.intern(a.Msg.Text),
		kind: a.Kind, lpos: a.Lifeline.Pos, mpos: a.Msg.Pos}
}

// resolver is the builder that checks names against a signature and builds
// the MultiTrace.
type resolver struct {
	file  string
	sig   *interaction.Signature
	names *[]string // the names of syms

	lf  []int32 // by sym: LifelineID+1 once looked up, 0 before
	msg []int32 // by sym: MessageID+1 once looked up, 0 before

	mt    MultiTrace
	comps []compInfo                // parallel to mt.Components
	cur   int                       // index of the current component
	trace []interaction.MultiAction // the trace of the current component

	owner    []int32      // by lifeline: index+1 of the component that has it, 0 = none yet
	ownerPos []syntax.Pos // by lifeline: where it entered its component
	all      int          // index+1 of the [#all] component, 0 = none
	allUse   []actionRef
	allUsed  []bool // by lifeline: allUse[l] is the first action of [#all] on l

	ev    []interaction.Action // the actions of the current event
	evPos []syntax.Pos
	pool  []interaction.Action // free space for events
}

// compInfo is what the resolver keeps about a component for its messages.
type compInfo struct {
	pos  syntax.Pos
	kind Kind
	list []sym // explicit lifelines, as written
	n    int   // number of lifelines
}

func newResolver(file string, sig *interaction.Signature) *resolver {
	n := sig.NumLifelines()
	return &resolver{file: file, sig: sig, owner: make([]int32, n), ownerPos: make([]syntax.Pos, n)}
}

func (r *resolver) errorf(pos syntax.Pos, format string, args ...any) error {
	return &syntax.Error{File: r.file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (r *resolver) name(s sym) string { return (*r.names)[s] }

// lifelineID looks up a lifeline name; inList tells a component's list from
// an action, for the message about gates.
func (r *resolver) lifelineID(s sym, pos syntax.Pos, inList bool) (interaction.LifelineID, error) {
	if int(s) < len(r.lf) && r.lf[s] > 0 {
		return interaction.LifelineID(r.lf[s] - 1), nil
	}
	name := r.name(s)
	id, ok := r.sig.Lifeline(name)
	if !ok {
		if r.sig.IsGate(name) {
			if inList {
				return 0, r.errorf(pos, "%s is a gate, not a lifeline: a component lists lifelines", quote(name))
			}
			return 0, r.errorf(pos, "%s is a gate, not a lifeline: gates do not occur in multi-traces", quote(name))
		}
		return 0, r.errorf(pos, "undeclared lifeline %s (add it to @lifeline in the signature)", quote(name))
	}
	for len(r.lf) <= int(s) {
		r.lf = append(r.lf, 0)
	}
	r.lf[s] = int32(id) + 1
	return id, nil
}

func (r *resolver) messageID(s sym, pos syntax.Pos) (interaction.MessageID, error) {
	if int(s) < len(r.msg) && r.msg[s] > 0 {
		return interaction.MessageID(r.msg[s] - 1), nil
	}
	name := r.name(s)
	id, ok := r.sig.Message(name)
	if !ok {
		return 0, r.errorf(pos, "undeclared message %s (add it to @message in the signature)", quote(name))
	}
	for len(r.msg) <= int(s) {
		r.msg = append(r.msg, 0)
	}
	r.msg[s] = int32(id) + 1
	return id, nil
}

// describe returns a component as written, for messages: [a,b], [#any].
func (r *resolver) describe(c *compInfo) string {
	switch c.kind {
	case Any:
		return "[#any]"
	case All:
		return "[#all]"
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range c.list {
		if i > 0 {
			b.WriteByte(',')
		}
		if i == 8 {
			b.WriteString("...")
			break
		}
		b.WriteString(short(syntax.QuoteName(r.name(s))))
	}
	b.WriteByte(']')
	return b.String()
}

func (r *resolver) actionText(a actionRef) string {
	k := "!"
	if a.kind == interaction.Reception {
		k = "?"
	}
	return short(syntax.QuoteName(r.name(a.l))) + k + short(syntax.QuoteName(r.name(a.m)))
}

func (r *resolver) component(pos syntax.Pos, k Kind) error {
	if k == All {
		if r.all > 0 {
			return r.errorf(pos, "more than one [#all] component (the first is at %s)", r.comps[r.all-1].pos)
		}
		r.all = len(r.comps) + 1
		r.allUsed = make([]bool, len(r.owner))
		r.allUse = make([]actionRef, len(r.owner))
	}
	r.mt.Components = append(r.mt.Components, Component{})
	r.comps = append(r.comps, compInfo{pos: pos, kind: k})
	r.cur = len(r.comps) - 1
	return nil
}

// claim puts lifeline l, named at pos, into the current component.
func (r *resolver) claim(l interaction.LifelineID, s sym, pos syntax.Pos) error {
	switch o := r.owner[l]; {
	case o == 0:
		r.owner[l] = int32(r.cur) + 1
		r.ownerPos[l] = pos
		r.comps[r.cur].n++
		return nil
	case int(o) == r.cur+1:
		return r.errorf(pos, "lifeline %s is listed twice in this component (first at %s)", quote(r.name(s)), r.ownerPos[l])
	default:
		return r.errorf(pos, "lifeline %s is in two components: here and at %s (a lifeline belongs to one location)", quote(r.name(s)), r.ownerPos[l])
	}
}

func (r *resolver) lifeline(s sym, pos syntax.Pos) error {
	l, err := r.lifelineID(s, pos, true)
	if err != nil {
		return err
	}
	c := &r.comps[r.cur]
	c.list = append(c.list, s)
	return r.claim(l, s, pos)
}

// resolve resolves an action of the current component.
func (r *resolver) resolve(a actionRef) (interaction.Action, error) {
	var l interaction.LifelineID
	if int(a.l) < len(r.lf) && r.lf[a.l] > 0 {
		l = interaction.LifelineID(r.lf[a.l] - 1)
	} else {
		var err error
		if l, err = r.lifelineID(a.l, a.lpos, false); err != nil {
			return 0, err
		}
	}
	var m interaction.MessageID
	if int(a.m) < len(r.msg) && r.msg[a.m] > 0 {
		m = interaction.MessageID(r.msg[a.m] - 1)
	} else {
		var err error
		if m, err = r.messageID(a.m, a.mpos); err != nil {
			return 0, err
		}
	}
	if o := int(r.owner[l]); o != r.cur+1 {
		c := &r.comps[r.cur]
		switch c.kind {
		case Explicit:
			return 0, r.errorf(a.lpos, "%s is on %s, outside component %s", r.actionText(a), short(syntax.QuoteName(r.name(a.l))), r.describe(c))
		case Any:
			if err := r.claim(l, a.l, a.lpos); err != nil {
				return 0, err
			}
		case All:
			// Checked at the end, when [#all] knows its lifelines.
			if !r.allUsed[l] {
				r.allUsed[l] = true
				r.allUse[l] = a
			}
		}
	}
	return interaction.MakeAction(l, a.kind, m), nil
}

func (r *resolver) single(a actionRef) error {
	act, err := r.resolve(a)
	if err != nil {
		return err
	}
	if len(r.pool) == 0 {
		r.pool = make([]interaction.Action, poolChunk)
	}
	ma := interaction.MultiAction(r.pool[:1:1])
	ma[0] = act
	r.pool = r.pool[1:]
	r.trace = append(r.trace, ma)
	return nil
}

func (r *resolver) action(a actionRef) error {
	act, err := r.resolve(a)
	if err != nil {
		return err
	}
	r.ev = append(r.ev, act)
	r.evPos = append(r.evPos, a.lpos)
	return nil
}

func (r *resolver) reserve(n int) {
	if cap(r.trace)-len(r.trace) < n {
		r.trace = append(make([]interaction.MultiAction, 0, len(r.trace)+n), r.trace...)
	}
	if len(r.pool) < n {
		r.pool = make([]interaction.Action, n)
	}
}

func (r *resolver) event(pos syntax.Pos) error {
	n := len(r.ev)
	if n > 1 {
		if err := r.checkRepeats(); err != nil {
			return err
		}
	}
	if n > len(r.pool) {
		r.pool = make([]interaction.Action, max(n, poolChunk))
	}
	ma := interaction.MultiAction(r.pool[:n:n])
	r.pool = r.pool[n:]
	copy(ma, r.ev)
	if n > 1 {
		slices.Sort(ma)
	}
	r.trace = append(r.trace, ma)
	r.ev, r.evPos = r.ev[:0], r.evPos[:0]
	return nil
}

// checkRepeats reports an action written twice in the current multi-action,
// at its second occurrence.
func (r *resolver) checkRepeats() error {
	first := -1
	var at int
	if len(r.ev) <= 16 {
		for j := 1; j < len(r.ev) && first < 0; j++ {
			for i := 0; i < j; i++ {
				if r.ev[i] == r.ev[j] {
					first, at = i, j
					break
				}
			}
		}
	} else {
		seen := make(map[interaction.Action]int, len(r.ev))
		for j, a := range r.ev {
			if i, dup := seen[a]; dup {
				first, at = i, j
				break
			}
			seen[a] = j
		}
	}
	if first < 0 {
		return nil
	}
	a := r.ev[at]
	return r.errorf(r.evPos[at], "action %s is repeated in this multi-action (first at %s)", a.Format(r.sig), r.evPos[first])
}

func (r *resolver) endComponent() error {
	r.mt.Components[r.cur].Trace = r.trace
	r.trace = nil
	c := &r.comps[r.cur]
	if c.kind == Any && c.n == 0 {
		return r.errorf(c.pos, "cannot infer the lifelines of an empty [#any] component: list them, as in [a,b] ;")
	}
	return nil
}

func (r *resolver) finish() error {
	if r.all > 0 {
		// An action of [#all] on a lifeline of another component: report the
		// first one in the file.
		bad := -1
		for l, used := range r.allUsed {
			if used && r.owner[l] != 0 && (bad < 0 || r.allUse[l].lpos.Offset < r.allUse[bad].lpos.Offset) {
				bad = l
			}
		}
		if bad >= 0 {
			a := r.allUse[bad]
			return r.errorf(a.lpos, "%s is on %s, outside component [#all] (%s is in the component at %s)",
				r.actionText(a), short(syntax.QuoteName(r.name(a.l))), short(syntax.QuoteName(r.name(a.l))), r.comps[r.owner[bad]-1].pos)
		}
		for l, o := range r.owner {
			if o == 0 {
				r.owner[l] = int32(r.all)
				r.comps[r.all-1].n++
			}
		}
		if r.comps[r.all-1].n == 0 {
			return r.errorf(r.comps[r.all-1].pos, "component [#all] has no lifeline left: every lifeline of the signature is in another component")
		}
	}
	ids := make([][]interaction.LifelineID, len(r.comps))
	for l, o := range r.owner {
		if o == 0 {
			r.mt.Components = append(r.mt.Components, Component{Lifelines: interaction.LifelinesOf(interaction.LifelineID(l))})
		} else {
			ids[o-1] = append(ids[o-1], interaction.LifelineID(l))
		}
	}
	for i, ls := range ids {
		r.mt.Components[i].Lifelines = interaction.LifelinesOf(ls...)
	}
	return nil
}
