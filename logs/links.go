package logs

import (
	"fmt"
	"unsafe"

	"github.com/ivc-project/ivc/interaction"
)

// HTTPRoute is the attribute of the OpenTelemetry semantic conventions
// that names the route of an HTTP server span.
const HTTPRoute = "http.route"

// spanKind is the kind of a span that carries an action, as OpenTelemetry
// and Jaeger write it: it says which partner a span may have.
type spanKind uint8

const (
	kindClient spanKind = iota
	kindProducer
	kindServer
	kindConsumer
)

func (k spanKind) action() interaction.Kind {
	if k == kindClient || k == kindProducer {
		return interaction.Emission
	}
	return interaction.Reception
}

// heldSpan is a span with an action, held until the file is read: its
// message may come from its linked partner.
type heldSpan struct {
	trace, spanID, parent string
	links                 []string
	line, col             int
	l, m                  string
	pairM                 string // the message of the pair, when this span is the receiving side
	kind                  spanKind
	start                 int64
}

// heldSpanBytes is what a held span takes besides the bytes of its
// strings.
const heldSpanBytes = int64(unsafe.Sizeof(heldSpan{}))

// hold keeps a span until flush, its names shortened past the longest
// name of the signature. The spans held count in the file's limit
// (Options.maxHeld): past it, a positioned error ends the reading.
func (r *spanReader) hold(s heldSpan) error {
	s.l, s.m, s.pairM = r.short(s.l), r.short(s.m), r.short(s.pairM)
	n := heldSpanBytes + int64(len(s.trace)+len(s.spanID)+len(s.parent)+len(s.l)+len(s.m)+len(s.pairM))
	for _, l := range s.links {
		n += 16 + int64(len(l))
	}
	if err := r.take(n, s.line, s.col); err != nil {
		return err
	}
	r.held = append(r.held, s)
	return nil
}

// take counts n more bytes held by the file's spans (at line:col), and
// returns an error past the file's limit.
func (r *spanReader) take(n int64, line, col int) error {
	r.heldBytes += n
	if r.maxHeld > 0 && r.heldBytes > r.maxHeld {
		r.over = true
		return &Error{File: r.b.file, Line: line, Col: col, Msg: fmt.Sprintf(
			"the spans read so far take more than %d bytes, the most a file may hold until it is read (to pair them; --max-memory raises it)", r.maxHeld)}
	}
	return nil
}

// short returns name, or, when it is longer than any name of the
// signature (it cannot be declared), a copy of its start ending in "…":
// a span holds it until its file is read, and a summary may print it.
func (r *spanReader) short(name string) string {
	if len(name) <= r.maxName {
		return name
	}
	return shortName(name, r.maxName)
}

// flush pairs the held spans and adds them, in the order read. A SERVER
// span whose parent is a CLIENT span of its trace, and a CONSUMER span
// whose parent or one of its links is a PRODUCER span, is linked with that
// span: both carry the receiving side's message (OpenTelemetry names the
// two sides of one call differently). A span without a partner keeps its
// own message.
func (r *spanReader) flush() error {
	if r.over {
		// The file's reading stopped at the limit: the sessions of the
		// spans held are not judged without the rest (Session.Dropped).
		for _, s := range r.held {
			r.b.stats.Malformed++
			r.b.sink.drop([]byte(s.trace), s.line, r.b.index)
			r.b.index++
		}
		r.held, r.heldBytes = nil, 0
		return nil
	}
	if len(r.held) == 0 {
		return nil
	}
	type key struct{ trace, span string }
	index := make(map[key]int, len(r.held))
	for i, s := range r.held {
		if s.spanID != "" {
			index[key{s.trace, s.spanID}] = i
		}
	}
	partner := func(id string, want spanKind, trace string) int {
		if id == "" {
			return -1
		}
		if j, ok := index[key{trace, id}]; ok && r.held[j].kind == want {
			return j
		}
		return -1
	}
	for i := range r.held {
		s := &r.held[i]
		j := -1
		switch s.kind {
		case kindServer:
			j = partner(s.parent, kindClient, s.trace)
		case kindConsumer:
			if j = partner(s.parent, kindProducer, s.trace); j < 0 {
				for _, id := range s.links {
					if j = partner(id, kindProducer, s.trace); j >= 0 {
						break
					}
				}
			}
		}
		if j >= 0 {
			s.m = s.pairM
			r.held[j].m = s.pairM
		}
	}
	held := r.held
	r.held, r.heldBytes = nil, 0
	for _, s := range held {
		if err := r.span([]byte(s.trace), s.line, s.col, s.spanID, s.l, s.kind.action(), s.m, s.start); err != nil {
			return err
		}
	}
	return nil
}
