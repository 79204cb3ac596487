package gen

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

// The bulky tables (bitsets, the NFA's transitions) are written as string
// literals of a compact printable encoding, decoded once when the generated
// package is initialized: a number is written low 5-bit group first, one
// character per group from encodeAlphabet, the 32 bit of the character's
// index set when another group follows (so numbers below 32 take one
// character). A set of integers is its number of runs of consecutive
// elements, then per run the gap from the end of the previous run and the
// run's length minus one: sparse and dense sets both stay short.

// encodeAlphabet is the URL-safe base64 alphabet: no character needs
// escaping in a Go string literal.
const encodeAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// encoder accumulates encoded numbers.
type encoder struct{ b strings.Builder }

func (e *encoder) num(v int) {
	if v < 0 {
		panic("gen: negative number in a table")
	}
	for v >= 32 {
		e.b.WriteByte(encodeAlphabet[32|v&31])
		v >>= 5
	}
	e.b.WriteByte(encodeAlphabet[v])
}

// set encodes a sorted set of distinct integers as runs.
func (e *encoder) set(elems []int) {
	var runs [][2]int
	for _, x := range elems {
		if n := len(runs); n > 0 && runs[n-1][0]+runs[n-1][1] == x {
			runs[n-1][1]++
			continue
		}
		runs = append(runs, [2]int{x, 1})
	}
	e.num(len(runs))
	end := 0
	for _, r := range runs {
		e.num(r[0] - end)
		e.num(r[1] - 1)
		end = r[0] + r[1]
	}
}

func (e *encoder) String() string { return e.b.String() }

func encodeSets(sets [][]int) string {
	var e encoder
	for _, s := range sets {
		e.set(s)
	}
	return e.String()
}

// dataLine is the width of the lines of encoded data in the source.
const dataLine = 96

// dataArgs returns s as string literals of dataLine characters, one per
// line, for a variadic decoder call.
func dataArgs(s string) []jen.Code {
	var out []jen.Code
	for len(s) > dataLine {
		out = append(out, jen.Lit(s[:dataLine]))
		s = s[dataLine:]
	}
	return append(out, jen.Lit(s))
}

// dataCall returns fn(args..., data...) with the data on lines of their own
// when it is long.
func dataCall(fn string, data string, args ...jen.Code) *jen.Statement {
	all := append(args, dataArgs(data)...)
	if len(data) <= dataLine {
		return jen.Id(fn).Call(all...)
	}
	return jen.Id(fn).Custom(jen.Options{Open: "(", Close: ")", Separator: ",", Multi: true}, all...)
}
