package gen

import (
	"fmt"
	"strconv"
	"strings"

	. "github.com/dave/jennifer/jen"
)

// tablesFile is verifier_tables.go: the symbol tables, the NFA, and each
// location's DFAs, with the decoders of the compact encoding.
func (m *model) tablesFile() *File {
	f := m.newFile()
	t := m.t
	f.Comment(fmt.Sprintf("The tables of the verifier of %s: an NFA of %d states and %d transitions", m.source(), t.NumStates, len(t.Trans)))
	f.Comment(fmt.Sprintf("over %d symbols, and %d locations with their projection DFAs.", len(t.Symbols), m.nloc))
	f.Line()
	f.Const().Defs(
		Id("numStates").Op("=").Lit(t.NumStates).Comment("states of the NFA"),
		Id("numTrans").Op("=").Lit(len(t.Trans)).Comment("transitions of the NFA: bit k of an area is transition k"),
		Id("numSymbols").Op("=").Lit(len(t.Symbols)).Comment("symbols (multi-actions) of the NFA"),
		Id("numLetters").Op("=").Lit(m.numLetters).Comment("letters of all locations"),
		Id("numLifelines").Op("=").Lit(len(m.cfg.Lifelines)),
		Id("numMessages").Op("=").Lit(len(m.cfg.Messages)),
		Id("stateWords").Op("=").Lit(m.stateWords).Comment("words of a set of NFA states"),
		Id("transWords").Op("=").Lit(m.transWords).Comment("words of a set of NFA transitions (an area)"),
		Id("visWords").Op("=").Lit(m.visWords()).Comment("words of a set of table entries of a location's DFA"),
		Id("noArea").Op("=").Lit(maxOf(m.areaType)).Comment("an entry of areaOf without area"),
	)
	f.Line()
	f.Comment("tableEntry is an entry of a DFA table (a row offset); areaIndex indexes areas.")
	f.Type().Defs(
		Id("tableEntry").Op("=").Id(m.tableType),
		Id("areaIndex").Op("=").Id(m.areaType),
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

	var syms []Code
	for x, ps := range t.Parts {
		var parts []Code
		for _, p := range ps {
			parts = append(parts, Values(Lit(p.Loc), Lit(m.locs[p.Loc].base+int(p.Letter))))
		}
		syms = append(syms, Line().Comment(t.Symbols[x]).Line().Values(parts...))
	}
	f.Comment("symbolParts[x] is what each location observes of symbol x of the NFA: the")
	f.Comment("action it reads there.")
	f.Var().Id("symbolParts").Op("=").Index(Id("numSymbols")).Index().Id("part").Add(multiValues(syms))
	f.Line()

	var initial []Code
	for _, q := range t.Initial {
		initial = append(initial, Lit(int(q)))
	}
	var enc encoder
	src := 0
	for _, tr := range t.Trans {
		enc.num(int(tr.Src) - src)
		enc.num(int(tr.Sym))
		enc.num(int(tr.Dst))
		src = int(tr.Src)
	}
	f.Comment("The NFA: its initial and final states, and its transitions sorted by source,")
	f.Comment("symbol and target, each as the increase of its source, its symbol and its")
	f.Comment("target (decoded by init).")
	f.Var().Defs(
		Id("initialStates").Op("=").Index(Op("...")).Uint32().Values(initial...),
		Id("finalStates").Op("=").Add(dataCall("set", encodeSets([][]int{t.Final.Elems()}), Id("stateWords"))),
		Id("nfaTransitions").Op("=").Add(dataCall("join", enc.String())),
	)
	f.Line()

	f.Comment("locations holds the tables of each location. See location.")
	f.Var().Id("locations").Op("=").Index(Id("NumLocations")).Id("location").Custom(Options{Open: "{", Close: "}", Separator: ",", Multi: true}, m.locationValues()...)
	f.Line()
	m.decoders(f)
	return f
}

// locationValues returns the composite literal of each location's tables.
func (m *model) locationValues() []Code {
	var out []Code
	for _, lm := range m.locs {
		areaOf := make([]int, len(lm.areaOf))
		for e, a := range lm.areaOf {
			areaOf[e] = a
			if a < 0 {
				areaOf[e] = maxOf(m.areaType)
			}
		}
		var futOf []Code
		for _, f := range lm.futOf {
			futOf = append(futOf, Lit(f))
		}
		d := Dict{
			Id("base"):    Lit(lm.base),
			Id("end"):     Lit(lm.end),
			Id("k"):       Lit(lm.k),
			Id("shift"):   Lit(lm.shift),
			Id("lbase"):   Lit(lm.lbase),
			Id("start"):   Lit(lm.fwd.start),
			Id("dead"):    Lit(lm.fwd.n << lm.shift),
			Id("next"):    m.table("tableEntry", lm.fwd.next, lm.shift),
			Id("final"):   dataCall("set", encodeSets([][]int{lm.fwd.final}), Lit(nwords(lm.fwd.n+1))),
			Id("areaOf"):  m.table("areaIndex", areaOf, lm.shift),
			Id("areas"):   dataCall("sets", encodeSets(lm.areas), Id("transWords")),
			Id("init"):    dataCall("set", encodeSets([][]int{lm.init}), Id("transWords")),
			Id("futOf"):   Index().Int32().Add(listValues(futOf, 24)),
			Id("futures"): dataCall("sets", encodeSets(lm.futures), Id("transWords")),
			Id("sub"):     dataCall("rows", encodeSets(lm.fwd.subsets), Id("stateWords")),
			Id("bstart"):  Lit(lm.back.start),
			Id("bdead"):   Lit(lm.back.n << lm.shift),
			Id("bnext"):   m.table("tableEntry", lm.back.next, lm.shift),
			Id("bsub"):    dataCall("rows", encodeSets(lm.back.subsets), Id("stateWords")),
			Id("astart"):  Lit(lm.any.start),
			Id("adead"):   Lit(lm.any.n << lm.shift),
			Id("anext"):   m.table("tableEntry", lm.any.next, lm.shift),
			Id("asub"):    dataCall("rows", encodeSets(lm.any.subsets), Id("stateWords")),
		}
		comment := fmt.Sprintf("%s: %d letters; projection DFA of %d states, %d areas, %d futures; backward DFAs of %d and %d states",
			lm.name, lm.k, lm.fwd.n, len(lm.areas), len(lm.futures), lm.back.n, lm.any.n)
		out = append(out, Line().Comment(comment).Line().Values(d))
	}
	return out
}

// table returns a dense table as a slice literal, one DFA row a line.
func (m *model) table(typ string, vals []int, shift int) *Statement {
	w := 1 << shift
	var rows []Code
	for r := 0; r < len(vals); r += w {
		var row []string
		for _, v := range vals[r : r+w] {
			row = append(row, strconv.Itoa(v))
		}
		rows = append(rows, Id(strings.Join(row, ", ")))
	}
	return Index().Id(typ).Custom(Options{Open: "{", Close: "}", Separator: ",", Multi: true}, rows...)
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

func maxOf(typ string) int {
	if typ == "uint32" {
		return 1<<32 - 1
	}
	return 1<<16 - 1
}

// visWords is the number of words of a set of entries of the largest
// forward DFA table.
func (m *model) visWords() int {
	n := 1
	for _, lm := range m.locs {
		n = max(n, nwords(len(lm.fwd.next)))
	}
	return n
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
		return m.cfg.Source
	}
	return "the interaction"
}

// decoders emits the decoders of the compact encoding (see encode.go).
func (m *model) decoders(f *File) {
	f.Comment("decodeTable maps the characters of the tables' encoding to their values: a")
	f.Comment("number is written low 5-bit group first, the 32 bit of a character telling")
	f.Comment("that another group follows.")
	f.Var().Id("decodeTable").Op("=").Func().Params().Params(Id("t").Index(Lit(256)).Uint8()).Block(
		For(List(Id("i"), Id("c")).Op(":=").Range().Lit(encodeAlphabet)).Block(
			Id("t").Index(Id("c")).Op("=").Uint8().Call(Id("i")),
		),
		Return(),
	).Call()
	f.Line()
	f.Comment("decoder reads the numbers of an encoded table.")
	f.Type().Id("decoder").Struct(
		Id("s").String(),
		Id("i").Int(),
	)
	f.Line()
	f.Func().Params(Id("d").Op("*").Id("decoder")).Id("more").Params().Bool().Block(
		Return(Id("d").Dot("i").Op("<").Len(Id("d").Dot("s"))),
	)
	f.Line()
	f.Func().Params(Id("d").Op("*").Id("decoder")).Id("next").Params().Int().Block(
		Id("v").Op(",").Id("shift").Op(":=").Lit(0).Op(",").Lit(0),
		For().Block(
			Id("c").Op(":=").Id("decodeTable").Index(Id("d").Dot("s").Index(Id("d").Dot("i"))),
			Id("d").Dot("i").Op("++"),
			Id("v").Op("|=").Int().Call(Id("c").Op("&").Lit(31)).Op("<<").Id("shift"),
			If(Id("c").Op("&").Lit(32).Op("==").Lit(0)).Block(Return(Id("v"))),
			Id("shift").Op("+=").Lit(5),
		),
	)
	f.Line()
	f.Comment("join concatenates the lines of an encoded table.")
	f.Func().Id("join").Params(Id("lines").Op("...").String()).String().Block(
		Return(Qual("strings", "Join").Call(Id("lines"), Lit(""))),
	)
	f.Line()
	f.Comment("sets decodes sets of integers (runs of consecutive elements) into bitsets")
	f.Comment("of words words each, one after the other.")
	f.Func().Id("sets").Params(Id("words").Int(), Id("lines").Op("...").String()).Index().Uint64().Block(
		Id("d").Op(":=").Id("decoder").Values(Dict{Id("s"): Id("join").Call(Id("lines").Op("..."))}),
		Var().Id("out").Index().Uint64(),
		For(Id("d").Dot("more").Call()).Block(
			Id("row").Op(":=").Len(Id("out")),
			Id("out").Op("=").Append(Id("out"), Make(Index().Uint64(), Id("words")).Op("...")),
			Id("at").Op(":=").Lit(0),
			For(Id("runs").Op(":=").Id("d").Dot("next").Call(), Id("runs").Op(">").Lit(0), Id("runs").Op("--")).Block(
				Id("at").Op("+=").Id("d").Dot("next").Call(),
				For(Id("n").Op(":=").Id("d").Dot("next").Call().Op("+").Lit(1), Id("n").Op(">").Lit(0), Id("n").Op("--")).Block(
					Id("out").Index(Id("row").Op("+").Id("at").Op(">>").Lit(6)).Op("|=").Lit(1).Op("<<").Parens(Id("at").Op("&").Lit(63)),
					Id("at").Op("++"),
				),
			),
		),
		Return(Id("out")),
	)
	f.Line()
	f.Comment("set decodes one set into a bitset of words words.")
	f.Func().Id("set").Params(Id("words").Int(), Id("lines").Op("...").String()).Index().Uint64().Block(
		Return(Id("sets").Call(Id("words"), Id("lines").Op("...")).Index(Op(":").Id("words"))),
	)
	f.Line()
	f.Comment("rows decodes the subsets of a DFA's states, followed by an empty row (for the")
	f.Comment("dead state) and a full one.")
	f.Func().Id("rows").Params(Id("words").Int(), Id("lines").Op("...").String()).Index().Uint64().Block(
		Id("out").Op(":=").Id("sets").Call(Id("words"), Id("lines").Op("...")),
		Id("out").Op("=").Append(Id("out"), Make(Index().Uint64(), Id("words")).Op("...")),
		For(Range().Id("words")).Block(
			Id("out").Op("=").Append(Id("out"), Op("^").Uint64().Call(Lit(0))),
		),
		Return(Id("out")),
	)
}
