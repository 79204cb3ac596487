package logs

import (
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

// spanKey is a span's trace and span ids, to find its partner.
type spanKey struct{ trace, span string }

// hold keeps a span until flush.
func (r *spanReader) hold(s heldSpan) {
	r.held = append(r.held, s)
}

// flush pairs the held spans and adds them, in the order read. A SERVER
// span whose parent is a CLIENT span of its trace, and a CONSUMER span
// whose parent or one of its links is a PRODUCER span, is linked with that
// span: both carry the receiving side's message (OpenTelemetry names the
// two sides of one call differently). A span without a partner keeps its
// own message.
func (r *spanReader) flush() error {
	if len(r.held) == 0 {
		return nil
	}
	if r.pairs == nil {
		r.pairs = map[spanKey]int{}
	}
	index := r.pairs
	clear(index)
	for i, s := range r.held {
		if s.spanID != "" {
			index[spanKey{s.trace, s.spanID}] = i
		}
	}
	partner := func(id string, want spanKind, trace string) int {
		if id == "" {
			return -1
		}
		if j, ok := index[spanKey{trace, id}]; ok && r.held[j].kind == want {
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
	r.held = nil
	defer func() { clear(held); r.held = held[:0] }() // its room, for the next spans
	for _, s := range held {
		r.id = append(r.id[:0], s.trace...)
		if err := r.span(r.id, s.line, s.col, s.spanID, s.l, s.kind.action(), s.m, s.start); err != nil {
			return err
		}
	}
	return nil
}
