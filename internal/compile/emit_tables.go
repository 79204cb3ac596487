package compile

import (
	"fmt"
	"strconv"
	"strings"

	. "github.com/dave/jennifer/jen"
)

// tablesFile is verifier_tables.go: the symbol tables, and the engine's
// tables in their encoding (see engine.Tables.Encode), decoded when the
// package is initialized.
func (m *model) tablesFile() *File {
	f := m.newFile()
	t := m.t
	f.Comment(fmt.Sprintf("The tables of the verifier of %s: an NFA of %d states and %d transitions", m.source(), t.NumStates, len(t.Trans)))
	f.Comment(fmt.Sprintf("over %d symbols, and %d locations with their projection DFAs:", len(m.symbols), m.nloc))
	for i, p := range t.Projs {
		back := ""
		if p.Back != nil {
			back = fmt.Sprintf("; backward DFAs of %d and %d states", p.Back.NumStates, p.BackAny.NumStates)
		}
		nAreas := 0
		if tw := nwords(len(t.Trans)); tw > 0 {
			nAreas = len(p.Areas) / tw
		}
		f.Comment(fmt.Sprintf("  - %s: %d letters, a projection DFA of %d states and %d areas%s", m.locs[i].name, p.K, p.NumStates, nAreas, back))
	}
	f.Line()
	f.Const().Defs(
		Id("numLifelines").Op("=").Lit(len(m.cfg.Lifelines)),
		Id("numMessages").Op("=").Lit(len(m.cfg.Messages)),
	)
	f.Line()

	names := make([]Code, len(m.actions))
	locsOf := make([]Code, len(m.actions))
	lifelinesOf := make([]Code, len(m.actions))
	for i, a := range m.actions {
		names[i] = Lit(a.name)
		locsOf[i] = Lit(a.loc)
		lifelinesOf[i] = Lit(a.lifeline)
	}
	f.Comment("actionNames, actionLocations and actionLifelines describe the actions by id: name,")
	f.Comment("location and lifeline (-1 for a multi-action).")
	f.Var().Defs(
		Id("actionNames").Op("=").Index(Id("NumActions")).String().Add(listValues(names, 8)),
		Id("actionLocations").Op("=").Index(Id("NumActions")).Id("Location").Add(listValues(locsOf, 24)),
		Id("actionLifelines").Op("=").Index(Id("NumActions")).Int32().Add(listValues(lifelinesOf, 24)),
	)
	f.Line()

	var lnames, llocs, mnames []Code
	for l, n := range m.cfg.Lifelines {
		lnames = append(lnames, Lit(n))
		llocs = append(llocs, Lit(m.ownerOf(l)))
	}
	for _, n := range m.cfg.Messages {
		mnames = append(mnames, Lit(n))
	}
	var locNames, locLifelines []Code
	for _, lm := range m.locs {
		locNames = append(locNames, Lit(lm.name))
		var ls []Code
		for _, l := range lm.lifelines {
			ls = append(ls, Lit(l))
		}
		locLifelines = append(locLifelines, Values(ls...))
	}
	sig := make([]Code, len(m.sigAction))
	for i, a := range m.sigAction {
		sig[i] = Lit(a)
	}
	aliases := func(as []string) Code {
		d := Dict{}
		for i, a := range as {
			if a != "" {
				d[Lit(a)] = Lit(i)
			}
		}
		return Map(String()).Int32().Values(d)
	}
	f.Comment("The aliases of lifelines and messages (gateway for \"api-gateway\").")
	f.Var().Defs(
		Id("lifelineAliases").Op("=").Add(aliases(m.cfg.LifelineAliases)),
		Id("messageAliases").Op("=").Add(aliases(m.cfg.MessageAliases)),
	)
	f.Line()
	f.Comment("The signature: lifelines and messages, the location of each lifeline, the")
	f.Comment("lifelines of each location, and sigActions[(l*numMessages+m)*2+kind], the")
	f.Comment("action l!m (kind 0) or l?m (kind 1).")
	f.Var().Defs(
		Id("lifelineNames").Op("=").Index(Id("numLifelines")).String().Add(listValues(lnames, 8)),
		Id("messageNames").Op("=").Index(Id("numMessages")).String().Add(listValues(mnames, 8)),
		Id("lifelineLocations").Op("=").Index(Id("numLifelines")).Id("Location").Add(listValues(llocs, 24)),
		Id("locationNames").Op("=").Index(Id("NumLocations")).String().Add(listValues(locNames, 8)),
		Id("locationLifelines").Op("=").Index(Id("NumLocations")).Index().Int32().Add(listValues(locLifelines, 8)),
		Id("sigActions").Op("=").Index(Id("numLifelines").Op("*").Id("numMessages").Op("*").Lit(2)).Id("Action").Add(listValues(sig, 16)),
	)
	f.Line()

	var multi []Code
	for _, ma := range m.multi {
		var parts []Code
		for _, p := range ma.parts {
			parts = append(parts, Lit(p))
		}
		multi = append(multi, Line().Comment(m.actions[ma.id].name).Line().Values(Index().Id("Action").Values(parts...), Lit(ma.id)))
	}
	f.Comment("multiActions are the letters made of several actions, with their parts sorted.")
	f.Var().Id("multiActions").Op("=").Index(Op("...")).Id("multiAction").Add(multiValues(multi))
	f.Line()

	syms := make([]Code, len(m.symbols))
	for x, name := range m.symbols {
		syms[x] = Lit(name)
	}
	f.Comment("symbolNames are the names of the automaton's symbols.")
	f.Var().Id("symbolNames").Op("=").Index(Op("...")).String().Add(listValues(syms, 8))
	f.Line()

	f.Comment("tables are the engine's tables: the automaton, what each location observes")
	f.Comment("of its symbols, and each location's projection DFA with its areas and")
	f.Comment("futures, and its backward DFAs (see Tables).")
	f.Var().Id("tables").Op("=").Add(dataCall("MustDecodeTables", m.out.Encode()))
	return f
}

// listValues returns a composite literal's values, per lines of at most
// perLine values.
func listValues(vals []Code, perLine int) *Statement {
	if len(vals) <= perLine {
		return Values(vals...)
	}
	var lines []Code
	for i := 0; i < len(vals); i += perLine {
		lines = append(lines, Custom(Options{Separator: ","}, vals[i:min(i+perLine, len(vals))]...))
	}
	return Custom(Options{Open: "{", Close: "}", Separator: ",", Multi: true}, lines...)
}

// multiValues returns a composite literal with one value a line.
func multiValues(vals []Code) *Statement {
	if len(vals) == 0 {
		return Values()
	}
	return Custom(Options{Open: "{", Close: "}", Separator: ",", Multi: true}, vals...)
}

func (m *model) ownerOf(l int) int {
	for i, lm := range m.locs {
		for _, x := range lm.lifelines {
			if x == l {
				return i
			}
		}
	}
	return -1
}

func (m *model) source() string {
	if m.cfg.Source != "" {
		return commentText(m.cfg.Source)
	}
	return "the interaction"
}

// commentText returns s as it may stand in a comment of the generated
// source: s itself when each of its characters prints, else a Go string
// literal of it. A file name is the user's, and a newline in it must not
// end a line comment (the next line would be code, or a build constraint
// such as "//go:build ignore" that leaves the package without files), nor
// "*/" a block comment (the command's documentation is one): in the
// literal, its '/' is written \x2f.
func commentText(s string) string {
	if strings.Contains(s, "*/") || strings.ContainsFunc(s, func(r rune) bool { return !strconv.IsPrint(r) }) {
		return strings.ReplaceAll(strconv.Quote(s), "*/", `*\x2f`)
	}
	return s
}

// dataLine is the width of the lines of encoded data in the source.
const dataLine = 96

// dataCall returns fn(data...) with data as string literals of dataLine
// characters, on lines of their own when it is long.
func dataCall(fn string, data string) *Statement {
	var args []Code
	for len(data) > dataLine {
		args = append(args, Lit(data[:dataLine]))
		data = data[dataLine:]
	}
	args = append(args, Lit(data))
	if len(args) == 1 {
		return Id(fn).Call(args...)
	}
	return Id(fn).Custom(Options{Open: "(", Close: ")", Separator: ",", Multi: true}, args...)
}
