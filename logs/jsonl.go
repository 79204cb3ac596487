package logs

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/valyala/fastjson"
)

// readJSONL reads a JSON Lines event log: one JSON object, one event, a
// line; blank lines are skipped. The objects are parsed with fastjson,
// which is about three times faster than encoding/json on these small flat
// objects (see BenchmarkJSONL and BenchmarkStdlibDecode).
func readJSONL(b *builder, lr *lineReader, opt *Options) error {
	names, err := fieldNames(opt.Fields)
	if err != nil {
		return err
	}
	var (
		p    fastjson.Parser
		ev   event
		nums [numRoles][]byte // the text of number fields
	)
	visit := func(k []byte, v *fastjson.Value) {
		r := roleOf(&names, k)
		if r == numRoles {
			return
		}
		switch v.Type() {
		case fastjson.TypeString:
			s, _ := v.StringBytes()
			if len(s) == 0 {
				ev[r] = value{}
			} else {
				ev[r] = value{typ: text, text: s}
			}
		case fastjson.TypeNumber:
			nums[r] = v.MarshalTo(nums[r][:0])
			ev[r] = value{typ: number, text: nums[r]}
		case fastjson.TypeNull:
			ev[r] = value{}
		default:
			ev[r] = value{typ: other}
		}
	}
	for {
		line, err := lr.nextEvent(b)
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		v, err := p.ParseBytes(line)
		if err != nil {
			col, msg := jsonSyntaxError(line)
			if msg == "" {
				msg = err.Error()
			}
			b.malformed(lr.line, col, "invalid JSON: %s", msg)
			continue
		}
		o, err := v.Object()
		if err != nil {
			b.malformed(lr.line, firstCol(line), "expected a JSON object (one event a line), found %s", v.Type())
			continue
		}
		ev = event{}
		o.Visit(visit)
		bad, err := b.interpret(&ev, &names, lr.line)
		if err != nil {
			return err
		}
		if bad != nil {
			b.bad(&ev, bad, lr.line, fieldCol(line, names[bad.role]))
		}
	}
}

// roleOf returns the role whose field is named k, or numRoles.
func roleOf(names *[numRoles]string, k []byte) role {
	for r, n := range names {
		if len(n) == len(k) && n == string(k) {
			return role(r)
		}
	}
	return numRoles
}

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
