package nfa

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseTimbuk reads a word automaton in the Timbuk format of the
// AutomatArk benchmark, a unary tree automaton:
//
//	Ops a0:1 a1:1 x:0
//
//	Automaton A
//	States q0 q1 q2
//	Final States q1
//	Transitions
//	x -> q0
//	a0(q0) -> q1
//	a1(q1) -> q1
//
// The unary operators (arity 1) are the letters, in their order of
// declaration; a nullary operator marks initial states ("x -> q0"); a
// transition a(q) -> p reads a from q to p (a word's first letter is the
// innermost symbol of its tree). States are numbered in their order of
// declaration and labelled with their names. Errors name file:line:col.
//
// A byte order mark at the start of the file is skipped; a control
// character other than a tab, or a byte that is not UTF-8, is an error.
func ParseTimbuk(file string, src []byte) (*NFA, error) {
	text, err := textOf(file, src)
	if err != nil {
		return nil, err
	}
	p := &timbukParser{file: file, b: NewBuilder(), arity: map[string]int{}, state: map[string]State{}}
	if err := p.parse(text); err != nil {
		return nil, err
	}
	return p.b.Build(), nil
}

type timbukParser struct {
	file  string
	b     *Builder
	arity map[string]int
	state map[string]State
	line  int
}

func (p *timbukParser) errorf(col int, format string, args ...any) error {
	return posError(p.file, p.line, col, format, args...)
}

// fields returns the fields of line with their columns (1-based).
func fields(line string) (fs []string, cols []int) {
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' {
			j++
		}
		if j > i {
			fs = append(fs, line[i:j])
			cols = append(cols, i+1)
		}
		i = j
	}
	return fs, cols
}

func (p *timbukParser) parse(src string) error {
	section := ""
	sawOps, sawStates, sawTrans := false, false, false
	for n, line := range strings.Split(src, "\n") {
		p.line = n + 1
		fs, cols := fields(line)
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		switch {
		case fs[0] == "Ops":
			if sawOps {
				return p.errorf(cols[0], "a second Ops section")
			}
			sawOps, section = true, "ops"
			if err := p.ops(fs[1:], cols[1:]); err != nil {
				return err
			}
			continue
		case fs[0] == "Automaton":
			section = "automaton"
			continue
		case fs[0] == "States":
			if !sawOps {
				return p.errorf(cols[0], "States before Ops (expected 'Ops a:1 ... x:0' first)")
			}
			sawStates, section = true, "states"
			if err := p.states(fs[1:], cols[1:]); err != nil {
				return err
			}
			continue
		case fs[0] == "Final" && len(fs) > 1 && fs[1] == "States":
			if !sawStates {
				return p.errorf(cols[0], "Final States before States")
			}
			section = "final"
			if err := p.finals(fs[2:], cols[2:]); err != nil {
				return err
			}
			continue
		case fs[0] == "Transitions":
			if !sawStates {
				return p.errorf(cols[0], "Transitions before States")
			}
			sawTrans, section = true, "transitions"
			if len(fs) > 1 {
				return p.errorf(cols[1], "expected a new line after Transitions")
			}
			continue
		}
		var err error
		switch section {
		case "ops":
			err = p.ops(fs, cols)
		case "states":
			err = p.states(fs, cols)
		case "final":
			err = p.finals(fs, cols)
		case "transitions":
			err = p.transition(line)
		default:
			err = p.errorf(cols[0], "unexpected %q (expected Ops, Automaton, States, Final States or Transitions)", fs[0])
		}
		if err != nil {
			return err
		}
	}
	if !sawTrans {
		return p.errorf(1, "missing Transitions section")
	}
	return nil
}

func (p *timbukParser) ops(fs []string, cols []int) error {
	for i, f := range fs {
		name, ar, ok := strings.Cut(f, ":")
		n, err := strconv.Atoi(ar)
		if !ok || name == "" || err != nil {
			return p.errorf(cols[i], "expected an operator name:arity, found %q", f)
		}
		if n < 0 {
			return p.errorf(cols[i], "operator %s has arity %d: an arity is 0 or 1", name, n)
		}
		if n > 1 {
			return p.errorf(cols[i], "operator %s has arity %d: only word automata (arities 0 and 1) are supported", name, n)
		}
		if _, dup := p.arity[name]; dup {
			return p.errorf(cols[i], "operator %s declared twice", name)
		}
		p.arity[name] = n
		if n == 1 {
			p.b.Symbol(name)
		}
	}
	return nil
}

func (p *timbukParser) states(fs []string, cols []int) error {
	for i, f := range fs {
		name, _, _ := strings.Cut(f, ":") // Timbuk allows q:0
		if _, dup := p.state[name]; dup {
			return p.errorf(cols[i], "state %s declared twice", name)
		}
		q := p.b.State(false)
		p.b.SetLabel(q, name)
		p.state[name] = q
	}
	return nil
}

func (p *timbukParser) lookup(name string, col int) (State, error) {
	name = strings.TrimSpace(name)
	q, ok := p.state[name]
	if !ok {
		return 0, p.errorf(col, "undeclared state %q", name)
	}
	return q, nil
}

func (p *timbukParser) finals(fs []string, cols []int) error {
	for i, f := range fs {
		name, _, _ := strings.Cut(f, ":")
		q, err := p.lookup(name, cols[i])
		if err != nil {
			return err
		}
		p.b.SetFinal(q, true)
	}
	return nil
}

// transition reads "x -> q" or "a(q) -> p".
func (p *timbukParser) transition(line string) error {
	arrow := strings.Index(line, "->")
	if arrow < 0 {
		return p.errorf(1, "expected a transition 'a(q) -> p' or 'x -> q'")
	}
	lhs := strings.TrimSpace(line[:arrow])
	lcol := strings.Index(line, lhs) + 1
	rcol := arrow + 3
	for rcol <= len(line) && line[rcol-1] == ' ' {
		rcol++
	}
	dst, err := p.lookup(line[arrow+2:], rcol)
	if err != nil {
		return err
	}
	op, arg, hasArg := strings.Cut(lhs, "(")
	op = strings.TrimSpace(op)
	ar, ok := p.arity[op]
	if !ok {
		return p.errorf(lcol, "undeclared operator %q", op)
	}
	if !hasArg {
		if ar != 0 {
			return p.errorf(lcol, "operator %s has arity 1: expected %s(q) -> p", op, op)
		}
		p.b.Initial(dst)
		return nil
	}
	if ar != 1 {
		return p.errorf(lcol, "operator %s has arity 0: expected %s -> q", op, op)
	}
	if !strings.HasSuffix(arg, ")") {
		return p.errorf(lcol+len(lhs), "expected ')'")
	}
	src, err := p.lookup(strings.TrimSuffix(arg, ")"), lcol+len(op)+1)
	if err != nil {
		return err
	}
	x, _ := p.b.syms.Lookup(op)
	p.b.Transition(src, x, dst)
	return nil
}

// bom is the UTF-8 byte order mark that some editors write at the start of
// a text file.
const bom = "\ufeff"

// textOf returns src as text without its byte order mark, or an error at
// its first byte that no text file has: a control character other than a
// tab or a line ending, or a byte that is not UTF-8. Columns count bytes
// after the mark, which editors hide.
func textOf(file string, src []byte) (string, error) {
	text := strings.TrimPrefix(string(src), bom)
	line, start := 1, 0
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				line, start = line+1, i+1
			case c < ' ' && c != '\t' && c != '\r' || c == 0x7f:
				return "", posError(file, line, i-start+1, "unexpected control character %U", rune(c))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			return "", posError(file, line, i-start+1, "invalid UTF-8 byte 0x%02x: not a text file?", c)
		}
		i += size
	}
	return text, nil
}

// posError returns the error file:line:col: message, with the file name
// quoted when it holds a character that is not printable, as
// syntax.FileName does (this package imports nothing of the module).
func posError(file string, line, col int, format string, args ...any) error {
	for _, r := range file {
		if r == utf8.RuneError || !strconv.IsPrint(r) && r != ' ' {
			file = strconv.Quote(file)
			break
		}
	}
	return fmt.Errorf("%s:%d:%d: %s", file, line, col, fmt.Sprintf(format, args...))
}
