package diagram

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// plantUMLBlocks returns the @startuml ... @enduml blocks of whole (a
// .puml file, or a Markdown file that is a bare diagram), or whole itself
// when it has none.
func plantUMLBlocks(src []byte, whole block) []block {
	var (
		blocks []block
		cur    *block
	)
	for _, l := range lines(src, whole.start, whole.end, whole.line) {
		t := strings.TrimSpace(string(src[l.start:l.end]))
		lt := strings.ToLower(t)
		switch {
		case strings.HasPrefix(lt, "@startuml"):
			next := l.end
			for next < whole.end && src[next] != '\n' {
				next++
			}
			if next < whole.end {
				next++
			}
			name := strings.TrimSpace(t[len("@startuml"):])
			if strings.HasPrefix(name, "(") { // @startuml(id=foo)
				name = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(name, "("), "id="), ")")
			}
			cur = &block{notation: PlantUML, start: next, end: whole.end, line: l.num + 1, pos: l.pos(l.start), name: name}
		case strings.HasPrefix(lt, "@enduml") && cur != nil:
			cur.end = l.start
			blocks = append(blocks, *cur)
			cur = nil
		}
	}
	if cur != nil {
		blocks = append(blocks, *cur)
	}
	if len(blocks) == 0 {
		whole.notation = PlantUML
		return []block{whole}
	}
	return blocks
}

// plantUMLOther are the first words of the lines that make a PlantUML
// diagram one of its other kinds (class, state, use case, component,
// object, activity, and PlantUML's other @start diagrams).
var plantUMLOther = []string{"class ", "abstract ", "interface ", "enum ", "state ", "usecase ", "component ",
	"node ", "object ", "package ", "rectangle ", "artifact ", "if (", "[*]", "@startmindmap", "@startgantt",
	"@startwbs", "@startjson", "@startyaml", "@startsalt", "@startditaa"}

// plantUMLKind reports whether a PlantUML diagram has a line of another
// kind of diagram (other), and whether it has a participant or an arrow
// (seq).
func plantUMLKind(text []byte) (other, seq bool) {
	for _, l := range lines(text, 0, len(text), 1) {
		t := strings.ToLower(strings.TrimSpace(string(text[l.start:l.end])))
		arrow := strings.Contains(t, "->") || strings.Contains(t, "<-")
		switch {
		case t == "start", t == "stop", strings.HasPrefix(t, ":") && strings.HasSuffix(t, ";"): // activity
			return true, seq
		case strings.HasPrefix(t, "[*]"):
			return true, seq
		}
		for _, w := range plantUMLOther {
			if strings.HasPrefix(t, w) && (!arrow || w[0] == '@') {
				return true, seq
			}
		}
		w, _, _ := strings.Cut(t, " ")
		seq = seq || participantKinds[w] || arrow
	}
	return false, seq
}

// isPlantUMLSequence reports whether a ```plantuml block of a Markdown
// file holds a sequence diagram: no line of another kind of diagram, and a
// participant or an arrow.
func isPlantUMLSequence(text []byte) bool {
	other, seq := plantUMLKind(text)
	return seq && !other
}

// participantKinds are PlantUML's keywords that declare a participant.
var participantKinds = map[string]bool{"participant": true, "actor": true, "boundary": true, "control": true,
	"entity": true, "database": true, "collections": true, "queue": true}

// activation is a participant activated by a call, which a return answers.
type activation struct {
	callee, caller endpoint
}

// plantUML is the state of reading a PlantUML diagram.
type plantUML struct {
	b            *builder
	active       []activation        // the activation stack, for return
	lastCaller   map[string]endpoint // the sender of the last message to each participant
	autoactivate bool
}

// readPlantUML reads a PlantUML sequence diagram, line by line: ' starts a
// comment line and /' ... '/ a comment anywhere; keywords are matched in
// any case.
func readPlantUML(b *builder, blk block) error {
	p := &plantUML{b: b, lastCaller: map[string]endpoint{}}
	var skip skipUntil
	inComment := false
	ls := lines(b.src, blk.start, blk.end, blk.line)
	for k := 0; k < len(ls); k++ {
		l := ls[k]
		raw := string(b.src[l.start:l.end])
		// A line that ends with a backslash goes on on the next one.
		for strings.HasSuffix(raw, `\`) && !strings.HasSuffix(raw, `\\`) && k+1 < len(ls) {
			k++
			raw = raw[:len(raw)-1] + string(b.src[ls[k].start:ls[k].end])
		}
		// Block comments /' ... '/, which may span lines; the text
		// left is kept at its columns.
		if inComment || strings.Contains(raw, "/'") {
			var out []byte
			for i := 0; i < len(raw); i++ {
				switch {
				case inComment && strings.HasPrefix(raw[i:], "'/"):
					inComment = false
					out = append(out, ' ', ' ')
					i++
				case inComment:
					out = append(out, ' ')
				case strings.HasPrefix(raw[i:], "/'"):
					inComment = true
					out = append(out, ' ', ' ')
					i++
				default:
					out = append(out, raw[i])
				}
			}
			raw = string(out)
		}
		t := strings.TrimSpace(raw)
		lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
		s := stmt{text: t, off: l.start + lead, l: l}
		switch {
		case skip != nil:
			if skip(strings.ToLower(t)) {
				skip = nil
			}
			continue
		case t == "":
			continue
		case strings.HasPrefix(t, "'"):
			rest := strings.TrimLeft(t[1:], " \t")
			if strings.HasPrefix(rest, "ivc:") {
				at := s.off + len(t) - len(rest) + len("ivc:")
				if err := b.annotate(l.pos(at), l.end); err != nil {
					return err
				}
			}
			continue
		}
		var err error
		if skip, err = p.statement(s); err != nil {
			return err
		}
	}
	// PlantUML closes what the diagram leaves open.
	end := blk.pos
	if len(ls) > 0 {
		end = ls[len(ls)-1].pos(ls[len(ls)-1].end)
	}
	return b.closeAll(end)
}

// until returns a skipUntil that ends at a line (in lower case) that is one
// of ends, with or without a space after "end".
func until(ends ...string) skipUntil {
	return func(t string) bool {
		t = strings.Join(strings.Fields(t), "")
		for _, e := range ends {
			if t == strings.ReplaceAll(e, " ", "") {
				return true
			}
		}
		return false
	}
}

// statement reads a statement, and returns what to skip when it spans
// lines.
func (p *plantUML) statement(s stmt) (skipUntil, error) {
	b := p.b
	if strings.HasPrefix(s.text, "&") { // teoz: at the same time as the message before
		s = s.at(1)
	}
	w, rest := s.word()
	if i := strings.IndexByte(w, '#'); i > 0 { // alt#Gold #LightBlue text
		w = w[:i]
	}
	pos := s.pos(0)
	if b.inBox && w != "end" && !participantKinds[w] && w != "create" {
		return nil, b.errorf(pos, "%s in a box: a box holds participants", quoteText(s.text))
	}
	switch {
	case participantKinds[w]:
		return p.participant(s, w, rest)
	case w == "create":
		s2 := s.at(len(s.text) - len(rest))
		if w2, rest2 := s2.word(); participantKinds[w2] {
			return p.participant(s2, w2, rest2)
		}
		return p.participant(s2, "participant", s2.text)
	case w == "end":
		w2, _ := s.at(3).word()
		switch w2 {
		case "box":
			if !b.inBox {
				return nil, b.errorf(pos, "end box outside a box")
			}
			b.inBox, b.box = false, ""
			return nil, b.ignored("end box", pos)
		case "", "alt", "opt", "loop", "par", "break", "critical", "group":
			return nil, b.close(pos)
		}
		return nil, b.errorf(pos, "%s of no block", quoteText(s.text))
	case w == "box":
		if err := b.ignored(w, pos); err != nil {
			return nil, err
		}
		label := rest
		if i := strings.IndexByte(label, '#'); i >= 0 {
			label = label[:i]
		}
		b.inBox, b.box = true, html.UnescapeString(strings.Trim(strings.TrimSpace(label), `"`))
		return nil, nil
	case w == "alt":
		return nil, b.open(blockAlt, w, pos)
	case w == "opt":
		return nil, b.open(blockOpt, w, pos)
	case w == "loop":
		return nil, b.open(blockLoop, w, pos)
	case w == "par" || w == "par2":
		return nil, b.open(blockPar, w, pos)
	case w == "critical":
		return nil, b.open(blockCritical, w, pos)
	case w == "break":
		return nil, b.open(blockBreak, w, pos)
	case w == "group":
		return nil, b.open(blockRect, w, pos)
	case w == "else":
		return nil, b.section(w, pos, blockAlt, blockOpt, blockPar, blockCritical)
	case w == "ref":
		return nil, b.errorf(pos, "ref (a reference to another diagram) is not supported: write its messages in this diagram")
	case w == "note" || w == "hnote" || w == "rnote" || w == "/" && strings.HasPrefix(strings.ToLower(rest), "note"):
		if err := b.ignored("note", pos); err != nil {
			return nil, err
		}
		if !strings.Contains(rest, ":") { // a note over lines
			return until("end note", "endnote", "end hnote", "endhnote", "end rnote", "endrnote"), nil
		}
		return nil, nil
	case w == "activate":
		return nil, p.activate(s, rest)
	case w == "deactivate":
		p.deactivate(strings.Fields(rest + " x")[0])
		return nil, b.ignored(w, pos)
	case w == "autoactivate":
		p.autoactivate = strings.EqualFold(rest, "on")
		return nil, b.ignored(w, pos)
	case w == "return":
		return nil, p.ret(s, rest)
	case w == "destroy", w == "autonumber", w == "caption", w == "hide", w == "show", w == "scale", w == "newpage",
		w == "mainframe", w == "skinparam" && !strings.HasSuffix(rest, "{"), strings.HasPrefix(w, "!"),
		strings.HasPrefix(s.text, "=="), strings.HasPrefix(s.text, "..."), strings.HasPrefix(s.text, "||"),
		strings.HasPrefix(strings.ToLower(s.text), "@startuml"), strings.HasPrefix(strings.ToLower(s.text), "@enduml"):
		return nil, b.ignored(w, pos)
	case w == "skinparam":
		return func(t string) bool { return strings.HasPrefix(t, "}") }, b.ignored(w, pos)
	case w == "legend" || (w == "center" || w == "left" || w == "right") && strings.HasPrefix(strings.ToLower(rest), "legend"):
		return until("end legend", "endlegend"), b.ignored(w, pos)
	case w == "title" || w == "header" || w == "footer":
		if rest == "" { // over lines
			return until("end "+w, "end"+w), b.ignored(w, pos)
		}
		return nil, b.ignored(w, pos)
	}
	a, err := p.arrow(s)
	if err != nil {
		return nil, err
	}
	return nil, b.message(a)
}

// participant reads "participant NAME [as ALIAS] [<<stereotype>>] [order N]
// [#color]" (or actor, database...). Of "X as Y", the quoted one is the name
// drawn and the other the id arrows use; when neither is quoted, X is the
// name and Y the id.
func (p *plantUML) participant(s stmt, shape, rest string) (skipUntil, error) {
	b := p.b
	at := len(s.text) - len(rest)
	first, n, quoted1, err := p.name(s, at)
	if err != nil {
		return nil, err
	}
	if first == "" {
		return nil, b.errorf(s.pos(0), "%s without a name", shape)
	}
	id, name, idAt := first, first, at
	after := s.at(at + n)
	if w, rest2 := after.word(); w == "as" {
		at2 := len(s.text) - len(rest2)
		second, _, quoted2, err := p.name(s, at2)
		if err != nil {
			return nil, err
		}
		if second == "" {
			return nil, b.errorf(after.pos(0), "expected a name after as")
		}
		if quoted2 && !quoted1 {
			id, name = first, second
		} else {
			id, name, idAt = second, first, at2
		}
	}
	if _, err := b.participant(Participant{ID: id, Name: name, Shape: shape, Pos: s.pos(idAt)}); err != nil {
		return nil, err
	}
	if strings.HasSuffix(s.text, "[") { // a title over lines: participant x [ ... ]
		return func(t string) bool { return strings.HasPrefix(t, "]") }, nil
	}
	return nil, nil
}

// name reads a participant's name at the i-th byte of s: "quoted", or a
// word of letters, digits, '_', '.', '@' and any character beyond ASCII. It
// returns the name (entities decoded), its length in s and whether it was
// quoted.
func (p *plantUML) name(s stmt, i int) (string, int, bool, error) {
	t := s.text[i:]
	if strings.HasPrefix(t, `"`) {
		end := strings.IndexByte(t[1:], '"')
		if end < 0 {
			return "", 0, false, p.b.errorf(s.pos(i), "quoted name not terminated: missing '\"'")
		}
		return strings.TrimSpace(html.UnescapeString(t[1 : end+1])), end + 2, true, nil
	}
	n := 0
	for n < len(t) {
		r, size := utf8.DecodeRuneInString(t[n:])
		if !isNameRune(r) {
			break
		}
		n += size
	}
	return t[:n], n, false, nil
}

func isNameRune(r rune) bool {
	if r >= utf8.RuneSelf {
		return r != utf8.RuneError && !unicode.IsSpace(r)
	}
	return r == '_' || r == '.' || r == '@' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// arrow reads "A -> B : text" and its variants: a reversed arrow (B <- A),
// dotted lines (-->), heads (>, >>, \, /, //, \\), decorations (o, x), a
// style (-[#red]>), the border ([-> B, A ->], ?-> B, A ->?), and activation
// marks after the receiver (++, --, **, !!).
func (p *plantUML) arrow(s stmt) (arrow, error) {
	b := p.b
	t := s.text
	var left, right endpoint
	i, err := p.endpointAt(s, 0, &left, true)
	if err != nil {
		return arrow{}, err
	}
	i += len(t[i:]) - len(strings.TrimLeft(t[i:], " \t"))
	arrowAt := i
	dec := func(j int) int { // a decoration o or x before or after a head
		if j < len(t) && (t[j] == 'o' || t[j] == 'x') {
			return 1
		}
		return 0
	}
	if d := dec(i); d > 0 && i+1 < len(t) && strings.ContainsRune("<-/\\", rune(t[i+1])) {
		i++
	}
	head := func(j int) (string, int) {
		for _, h := range []string{"<<", "<", `\\`, `\`, "//", "/", ">>", ">"} {
			if strings.HasPrefix(t[j:], h) {
				return h, len(h)
			}
		}
		return "", 0
	}
	lh, n := head(i)
	if lh == ">" || lh == ">>" {
		lh, n = "", 0
	}
	i += n
	dashes := 0
	for i < len(t) {
		switch {
		case t[i] == '-':
			dashes++
			i++
			continue
		case t[i] == '[': // a style: -[#red]>, [#gray]-->
			end := strings.IndexByte(t[i:], ']')
			if end < 0 {
				return arrow{}, b.errorf(s.pos(i), "arrow style '[' without its ']'")
			}
			i += end + 1
			continue
		}
		break
	}
	if dashes == 0 {
		return arrow{}, b.errorf(s.pos(0), "expected a message (A -> B : text) or a statement, found %s", quoteText(t))
	}
	rh, n := head(i)
	if rh == "<" || rh == "<<" {
		rh, n = "", 0
	}
	i += n
	if d := dec(i); d > 0 && (i+1 == len(t) || !isNameRune(rune(t[i+1]))) {
		if rh == "" && lh == "" { // -x, --o: the decoration is the head
			rh = t[i : i+1]
		}
		i++
	}
	if lh == "" && rh == "" {
		return arrow{}, b.errorf(s.pos(arrowAt), "arrow %s without a head", quoteText(t[arrowAt:i]))
	}
	written := t[arrowAt:i]
	i += len(t[i:]) - len(strings.TrimLeft(t[i:], " \t"))
	j, err := p.endpointAt(s, i, &right, false)
	if err != nil {
		return arrow{}, err
	}
	// Activation marks: ++ activates the receiver, -- deactivates the
	// sender, ** creates the receiver, !! destroys it; then a color.
	marks := ""
	for {
		j += len(t[j:]) - len(strings.TrimLeft(t[j:], " \t"))
		if m := t[j:]; strings.HasPrefix(m, "++") || strings.HasPrefix(m, "--") || strings.HasPrefix(m, "**") || strings.HasPrefix(m, "!!") {
			marks += m[:2]
			j += 2
			continue
		}
		break
	}
	if strings.HasPrefix(t[j:], "#") {
		j += strings.IndexAny(t[j:]+" ", " \t:")
	}
	j += len(t[j:]) - len(strings.TrimLeft(t[j:], " \t"))
	text, textAt := "", j
	switch {
	case strings.HasPrefix(t[j:], ":"):
		text = t[j+1:]
		textAt = j + 1 + len(text) - len(strings.TrimLeft(text, " \t"))
		text = html.UnescapeString(strings.TrimSpace(text))
	case j < len(t):
		return arrow{}, b.errorf(s.pos(j), "expected ':' and the message, found %s", quoteText(t[j:]))
	}
	from, to := left, right
	if lh != "" && rh == "" {
		from, to = right, left
	}
	a := arrow{from: from, to: to, arrow: written, reply: dashes >= 2, text: text, textPos: s.pos(textAt)}
	p.track(a, marks)
	return a, nil
}

// endpointAt reads an end of an arrow at the i-th byte of s into e: a
// participant, or the border ([ and ] on their side, ? on either). It
// returns the index after it.
func (p *plantUML) endpointAt(s stmt, i int, e *endpoint, left bool) (int, error) {
	t := s.text
	e.pos = s.pos(i)
	if i < len(t) && (t[i] == '?' || left && t[i] == '[' || !left && t[i] == ']') {
		e.border = true
		return i + 1, nil
	}
	name, n, _, err := p.name(s, i)
	if err != nil {
		return 0, err
	}
	if name == "" {
		if left {
			return 0, p.b.errorf(s.pos(i), "expected a message (A -> B : text) or a statement, found %s", quoteText(t))
		}
		return 0, p.b.errorf(s.pos(i), "expected a participant after the arrow, found %s", quoteText(t[i:]))
	}
	e.id = name
	return i + n, nil
}

// track updates the activations after the message a with marks.
func (p *plantUML) track(a arrow, marks string) {
	if !a.to.border {
		p.lastCaller[a.to.id] = a.from
	}
	if strings.Contains(marks, "--") && !a.from.border {
		p.deactivate(a.from.id)
	}
	switch {
	case strings.Contains(marks, "++"), p.autoactivate && !a.reply && !a.to.border:
		p.active = append(p.active, activation{callee: a.to, caller: a.from})
	case p.autoactivate && a.reply && !a.from.border:
		p.deactivate(a.from.id)
	}
}

// activate reads "activate X": X was called by the sender of the last
// message it received.
func (p *plantUML) activate(s stmt, rest string) error {
	if err := p.b.ignored("activate", s.pos(0)); err != nil {
		return err
	}
	id := strings.Fields(rest + " x")[0]
	id = strings.Trim(id, `"`)
	caller, ok := p.lastCaller[id]
	if !ok {
		caller = endpoint{border: true}
	}
	p.active = append(p.active, activation{callee: endpoint{id: id, pos: s.pos(0)}, caller: caller})
	return nil
}

// deactivate ends the last activation of id.
func (p *plantUML) deactivate(id string) {
	id = strings.Trim(id, `"`)
	for k := len(p.active) - 1; k >= 0; k-- {
		if !p.active[k].callee.border && p.active[k].callee.id == id {
			p.active = append(p.active[:k], p.active[k+1:]...)
			return
		}
	}
}

// ret reads "return text": a reply from the last activated participant to
// its caller, which ends the activation.
func (p *plantUML) ret(s stmt, rest string) error {
	if len(p.active) == 0 {
		return p.b.errorf(s.pos(0), "return with no activation to return from (activate the callee: A -> B ++ : call)")
	}
	act := p.active[len(p.active)-1]
	p.active = p.active[:len(p.active)-1]
	text := html.UnescapeString(rest)
	from, to := act.callee, act.caller
	from.pos, to.pos = s.pos(0), s.pos(0)
	return p.b.message(arrow{from: from, to: to, arrow: "return", reply: true, text: text, textPos: s.pos(len(s.text) - len(rest))})
}
