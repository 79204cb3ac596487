package logs

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math/bits"

	"github.com/valyala/fastjson"
)

// readJSONL reads a JSON Lines event log: one JSON object, one event, a
// line; blank lines are skipped. A line is read by flatScanner when it is a
// flat object of plain values (the lines ivc and most loggers write), and
// otherwise parsed with fastjson, which is about three times faster than
// encoding/json on these small flat objects (see BenchmarkJSONL and
// BenchmarkStdlibDecode); both give the same event.
func readJSONL(b *builder, lr *lineReader, opt *Options) error {
	names, err := fieldNames(opt.Fields)
	if err != nil {
		return err
	}
	d := jsonDecoder{keys: newNameTable(names[:])}
	flat := flatScanner{keys: d.keys}
	for {
		line, err := lr.nextEvent(b)
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		ev := &d.ev
		if !flat.scan(line, ev) {
			v, err := d.parse(line)
			if err != nil {
				col, msg := jsonSyntaxError(line)
				if msg == "" {
					msg = err.Error()
				}
				b.malformed(lr.line, col, "invalid JSON: %s", msg)
				continue
			}
			if v != nil {
				b.malformed(lr.line, firstCol(line), "expected a JSON object (one event a line), found %s", v.Type())
				continue
			}
		}
		bad, err := b.interpret(ev, &names, lr.line)
		if err != nil {
			return err
		}
		if bad != nil {
			b.bad(ev, bad, lr.line, fieldCol(line, names[bad.role]))
		}
	}
}

// jsonDecoder reads the fields of a JSON line with fastjson, reusing its
// parser and buffers from line to line.
type jsonDecoder struct {
	keys  *nameTable // the fields of the roles
	p     fastjson.Parser
	ev    event
	nums  [numRoles][]byte // the text of number fields
	visit func(k []byte, v *fastjson.Value)
}

// parse reads line into d.ev. The error is fastjson's, for a line that is
// not JSON; the value is the line's when it is JSON but not an object (nil
// for an object).
func (d *jsonDecoder) parse(line []byte) (*fastjson.Value, error) {
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return nil, err
	}
	o, err := v.Object()
	if err != nil {
		return v, nil
	}
	if d.visit == nil {
		d.visit = d.field // a method value allocates: once
	}
	d.ev = event{}
	o.Visit(d.visit)
	return nil, nil
}

// field sets the field k of d.ev to v when k names a role.
func (d *jsonDecoder) field(k []byte, v *fastjson.Value) {
	i, ok := d.keys.find(k)
	if !ok {
		return
	}
	r := role(i)
	ev := &d.ev
	switch v.Type() {
	case fastjson.TypeString:
		s, _ := v.StringBytes()
		if len(s) == 0 {
			ev[r] = value{}
		} else {
			ev[r] = value{typ: text, text: s}
		}
	case fastjson.TypeNumber:
		d.nums[r] = v.MarshalTo(d.nums[r][:0])
		ev[r] = value{typ: number, text: d.nums[r]}
	case fastjson.TypeNull:
		ev[r] = value{}
	default:
		ev[r] = value{typ: other}
	}
}

// flatScanner reads the lines that are flat JSON objects of plain values
// (scan), remembering the keys of the last such line in their order: the
// lines of one logger repeat their keys in the same order, so that a key
// is mostly told by comparing it with the one at its place in the line
// before, without scanning it to its end and looking it up.
type flatScanner struct {
	keys *nameTable
	seen [maxSeenKeys]seenKey // the keys of the last line, by place
}

// maxSeenKeys is the most keys of a line that flatScanner remembers.
const maxSeenKeys = 16

// seenKey is a key as met at its place in a line: its text followed by
// its closing quote, and its role (-1: none). A quoted key of up to 16
// bytes is also kept as two words and their masks (words), so that it is
// compared with a line by two loads.
type seenKey struct {
	quoted []byte
	role   int32
	words  [2]uint64
	masks  [2]uint64 // zero when the key is longer
}

// key reads the key of line whose text starts at i, after its opening
// quote, as the p-th key of the line: its role (-1: none) and the index
// after its closing quote; false when it is not a plain string.
func (f *flatScanner) key(line []byte, i, p int) (int32, int, bool) {
	if p < maxSeenKeys {
		// The key holds no quote: when it is the one of the line before,
		// the string ends after it.
		k := &f.seen[p]
		if k.masks[0] != 0 && i+16 <= len(line) {
			if binary.LittleEndian.Uint64(line[i:])&k.masks[0] == k.words[0] &&
				binary.LittleEndian.Uint64(line[i+8:])&k.masks[1] == k.words[1] {
				return k.role, i + len(k.quoted), true
			}
		} else if len(k.quoted) > 0 && bytes.HasPrefix(line[i:], k.quoted) {
			return k.role, i + len(k.quoted), true
		}
	}
	key, next, ok := plainString(line, i)
	if !ok {
		return 0, 0, false
	}
	r, known := f.keys.find(key)
	if !known {
		r = -1
	}
	if p < maxSeenKeys {
		k := &f.seen[p]
		k.quoted = append(append(k.quoted[:0], key...), '"')
		k.role = r
		k.words, k.masks = [2]uint64{}, [2]uint64{}
		if len(k.quoted) <= 16 {
			var b [16]byte
			copy(b[:], k.quoted)
			for j := range k.quoted {
				k.masks[j/8] |= 0xff << (j % 8 * 8)
			}
			k.words = [2]uint64{binary.LittleEndian.Uint64(b[:]), binary.LittleEndian.Uint64(b[8:])}
		}
	}
	return r, next, true
}

// scan reads line into ev when it is one flat JSON object whose keys and
// strings hold no escape and whose values are strings, numbers, true,
// false or null: ev is then what fastjson and jsonDecoder give (the same
// leniency: a number is any run of digits, signs, dots and exponents after
// a digit or a minus, as fastjson reads it), and the values point into
// line. It returns false for anything else, ev then undefined: fastjson
// reads the line, its errors with it. So a line costs one pass, without
// building fastjson's values.
func (f *flatScanner) scan(line []byte, ev *event) bool {
	*ev = event{}
	i := skipSpace(line, 0)
	if i == len(line) || line[i] != '{' {
		return false
	}
	for p, i := 0, skipSpace(line, i+1); ; p, i = p+1, skipSpace(line, i+1) {
		// A key.
		if i == len(line) || line[i] != '"' {
			return false // also the empty object, rare
		}
		r, next, ok := f.key(line, i+1, p)
		if !ok {
			return false
		}
		i = skipSpace(line, next)
		if i == len(line) || line[i] != ':' {
			return false
		}
		i = skipSpace(line, i+1)
		if i == len(line) {
			return false
		}
		// Its value.
		var v value
		switch c := line[i]; {
		case c == '"':
			s, next, ok := plainString(line, i+1)
			if !ok {
				return false
			}
			if len(s) > 0 {
				v = value{typ: text, text: s}
			}
			i = next
		case isDigit(c) || c == '-' && i+1 < len(line) && isDigit(line[i+1]):
			j := i + 1
			for j < len(line) && (isDigit(line[j]) || line[j] == '.' || line[j] == '-' || line[j] == '+' || line[j] == 'e' || line[j] == 'E') {
				j++
			}
			v = value{typ: number, text: line[i:j]}
			i = j
		case bytes.HasPrefix(line[i:], []byte("null")):
			i += len("null")
		case bytes.HasPrefix(line[i:], []byte("true")):
			v = value{typ: other}
			i += len("true")
		case bytes.HasPrefix(line[i:], []byte("false")):
			v = value{typ: other}
			i += len("false")
		default:
			return false // an object, an array, NaN, ...
		}
		if r >= 0 {
			ev[r] = v
		}
		i = skipSpace(line, i)
		if i == len(line) {
			return false
		}
		if line[i] == '}' {
			return skipSpace(line, i+1) == len(line)
		}
		if line[i] != ',' {
			return false
		}
	}
}

// plainString returns the string of line that starts at i, after its
// opening quote, and the index after its closing quote; false when it holds
// a backslash (an escape) or does not end. It looks at a word at a time
// with swar.go's masks, as strictStopAt does, but keeps its own loop: it
// lets control characters through (as fastjson does), and a call to a
// shared function, which would not be inlined, costs a line's short
// strings more than the search (BenchmarkJSONL, 3-12%).
func plainString(line []byte, i int) ([]byte, int, bool) {
	j := i
	for ; j+8 <= len(line); j += 8 {
		w := binary.LittleEndian.Uint64(line[j:])
		if m := zeros(w^(ones*'"')) | zeros(w^(ones*'\\')); m != 0 {
			k := j + bits.TrailingZeros64(m)>>3 // the first quote or backslash
			if line[k] == '"' {
				return line[i:k], k + 1, true
			}
			return nil, 0, false
		}
	}
	for ; j < len(line); j++ {
		switch line[j] {
		case '"':
			return line[i:j], j + 1, true
		case '\\':
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// skipSpace returns the index of the first byte of line from i that is not
// JSON white space.
func skipSpace(line []byte, i int) int {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\n' || line[i] == '\r') {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// jsonSyntaxError returns the column and message of the syntax error of
// line as encoding/json finds it; 0 and "" if it finds none.
func jsonSyntaxError(line []byte) (int, string) {
	var raw json.RawMessage
	err := json.Unmarshal(line, &raw)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return max(int(se.Offset), 1), se.Error()
	}
	return 0, ""
}

// firstCol returns the column of the first non-blank byte of line.
func firstCol(line []byte) int {
	return len(line) - len(bytes.TrimLeft(line, " \t")) + 1
}

// fieldCol returns the column of the value of the field name in a JSON
// line, or 0 if it is not found: error messages point at it.
func fieldCol(line []byte, name string) int {
	key, _ := json.Marshal(name)
	for off := 0; ; {
		i := bytes.Index(line[off:], key)
		if i < 0 {
			return 0
		}
		j := off + i + len(key)
		rest := bytes.TrimLeft(line[j:], " \t")
		if len(rest) > 0 && rest[0] == ':' {
			rest = bytes.TrimLeft(rest[1:], " \t")
			return len(line) - len(rest) + 1
		}
		off = j
	}
}
