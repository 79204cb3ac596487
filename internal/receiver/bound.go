package receiver

// What an OTLP request takes once decoded, estimated before it is decoded.
// pdata decodes a request into a struct per message and an allocation per
// attribute value: an empty span is 2 bytes of protobuf (3 of JSON) and
// hundreds once decoded, so the size of a body says little about what
// decoding it takes (64 KiB of gzip, 66 MB of empty spans, 8 GB decoded).
// The scans below walk a body without decoding it, counting its messages
// and fields, and the receivers refuse a request whose estimate is past
// their bound before pdata decodes it.

import (
	"encoding/binary"
	"errors"
)

// Costs of the estimate, in bytes: what the request decoded by pdata holds
// for a message of each type, as TestDecodedEstimate measures it for
// requests of many empty messages (a span 217 B, an attribute 47 to 55, an
// event 72, a link 89, a value of an array 19, a ResourceSpans 137, a
// ScopeSpans 121), with room for the slices that grow while it decodes
// (append's doubling), and per field (a string's header; its bytes are
// counted once, as the body's). JSON does not say which message an object
// is: an object costs what a span does.
const (
	fieldCost      = 8
	jsonObjectCost = 256
)

// messageCost is the cost of a message of each type.
var messageCost = [...]int64{
	pbOther:         64,
	pbRequest:       64,
	pbResourceSpans: 192,
	pbResource:      64,
	pbScopeSpans:    192,
	pbScope:         64,
	pbSpan:          256,
	pbEvent:         128,
	pbLink:          128,
	pbKeyValue:      96,
	pbAnyValue:      32,
	pbArrayValue:    64,
	pbKeyValueList:  64,
}

// protoMessage is an OTLP trace message type the scan descends into.
type protoMessage uint8

const (
	pbOther protoMessage = iota // a message whose fields are all scalars or strings
	pbRequest
	pbResourceSpans
	pbResource
	pbScopeSpans
	pbScope
	pbSpan
	pbEvent
	pbLink
	pbKeyValue
	pbAnyValue
	pbArrayValue
	pbKeyValueList
)

// protoChild returns the message type of field f of a message of type m,
// or pbOther when f is not a message (or one without messages inside).
func protoChild(m protoMessage, f uint64) (protoMessage, bool) {
	switch m {
	case pbRequest:
		if f == 1 {
			return pbResourceSpans, true
		}
	case pbResourceSpans:
		switch f {
		case 1:
			return pbResource, true
		case 2, 1000: // 1000: the deprecated instrumentation_library_spans
			return pbScopeSpans, true
		}
	case pbResource:
		switch f {
		case 1:
			return pbKeyValue, true
		case 3:
			return pbOther, true // entity refs
		}
	case pbScopeSpans:
		switch f {
		case 1:
			return pbScope, true
		case 2:
			return pbSpan, true
		}
	case pbScope:
		if f == 3 {
			return pbKeyValue, true
		}
	case pbSpan:
		switch f {
		case 9:
			return pbKeyValue, true
		case 11:
			return pbEvent, true
		case 13:
			return pbLink, true
		case 15:
			return pbOther, true // status
		}
	case pbEvent:
		if f == 3 {
			return pbKeyValue, true
		}
	case pbLink:
		if f == 4 {
			return pbKeyValue, true
		}
	case pbKeyValue:
		if f == 2 {
			return pbAnyValue, true
		}
	case pbAnyValue:
		switch f {
		case 5:
			return pbArrayValue, true
		case 6:
			return pbKeyValueList, true
		}
	case pbArrayValue:
		if f == 1 {
			return pbAnyValue, true
		}
	case pbKeyValueList:
		if f == 1 {
			return pbKeyValue, true
		}
	}
	return pbOther, false
}

// maxDepth is pdata's limit of nested messages: deeper, it refuses the
// request, so the scan need not descend further.
const maxDepth = 100

var errProto = errors.New("malformed protobuf")

// protoEstimate returns what decoding an ExportTraceServiceRequest's
// protobuf b takes, estimated: its bytes, and a cost per message and field
// at any depth; an error when b is not protobuf (pdata would refuse it).
// It allocates nothing.
func protoEstimate(b []byte) (int64, error) {
	n, err := scanProto(b, pbRequest, 0)
	return int64(len(b)) + n, err
}

// children is protoChild for the fields below 16, as a table: the child's
// type + 1, or 0 when the field is not a message.
var children = func() (t [pbKeyValueList + 1][16]uint8) {
	for m := range t {
		for f := range t[m] {
			if c, ok := protoChild(protoMessage(m), uint64(f)); ok {
				t[m][f] = uint8(c) + 1
			}
		}
	}
	return t
}()

// scanProto returns the cost of the fields of b, a message of type m at
// depth d, and of the messages inside.
func scanProto(b []byte, m protoMessage, d int) (int64, error) {
	var cost int64
	for len(b) > 0 {
		// Most keys, lengths and varints of a request take a byte: they
		// are read here, without the loop of binary.Uvarint.
		var key uint64
		if b[0] < 0x80 {
			key, b = uint64(b[0]), b[1:]
		} else {
			x, k := binary.Uvarint(b)
			if k <= 0 {
				return cost, errProto
			}
			key, b = x, b[k:]
		}
		cost += fieldCost
		switch key & 7 {
		case 0: // varint
			if len(b) > 0 && b[0] < 0x80 {
				b = b[1:]
				break
			}
			_, k := binary.Uvarint(b)
			if k <= 0 {
				return cost, errProto
			}
			b = b[k:]
		case 1: // 64 bits
			if len(b) < 8 {
				return cost, errProto
			}
			b = b[8:]
		case 5: // 32 bits
			if len(b) < 4 {
				return cost, errProto
			}
			b = b[4:]
		case 2: // length-delimited: bytes, a string or a message
			l, k := uint64(0), 1
			if len(b) > 0 && b[0] < 0x80 {
				l = uint64(b[0])
			} else {
				l, k = binary.Uvarint(b)
			}
			if k <= 0 || l > uint64(len(b)-k) {
				return cost, errProto
			}
			v := b[k : k+int(l)]
			b = b[k+int(l):]
			child, ok := pbOther, false
			if f := key >> 3; f < 16 {
				c := children[m][f]
				child, ok = protoMessage(c-1), c != 0
			} else {
				child, ok = protoChild(m, f)
			}
			if ok {
				cost += messageCost[child]
				if child != pbOther && d < maxDepth {
					c, err := scanProto(v, child, d+1)
					cost += c
					if err != nil {
						return cost, err
					}
				}
			}
		default: // groups: OTLP has none, and pdata skips them as unknown
			return cost, errProto
		}
	}
	return cost, nil
}

// jsonEstimate returns what decoding an OTLP/JSON body b takes, estimated
// as protoEstimate does, counting objects as messages and values as fields
// (commas and colons), strings skipped; and the length of
// its first JSON value (an object), at whose end the body must end but for
// white space: an error when it does not, or holds no whole object.
func jsonEstimate(b []byte) (estimate int64, end int, err error) {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return 0, 0, errors.New("not a JSON object")
	}
	depth := 0
	var cost int64
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '{':
			depth++
			cost += jsonObjectCost
		case '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				end = i + 1
				if j := skipSpace(b, end); j < len(b) {
					return 0, end, errors.New("data after the first JSON value")
				}
				return int64(len(b)) + cost, end, nil
			}
		case ',', ':':
			cost += fieldCost
		}
	}
	return 0, 0, errors.New("unexpected end of JSON input")
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
