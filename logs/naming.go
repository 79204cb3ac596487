package logs

import (
	"fmt"
	"strings"
)

// The naming of spans. OpenTelemetry names one call in several ways at
// once (its route, its method and route, its span name, its RPC service
// and method), and which of them a team writes in its spec is the team's
// choice: a span's message is the first of its candidate names that the
// signature declares, in one order per kind, whether or not its partner is
// in the trace:
//
//   - CLIENT and SERVER spans: http.route, "METHOD http.route" (the
//     method from http.request.method, else http.method), the span's name,
//     "rpc.service/rpc.method", rpc.method, messaging.destination.name;
//   - PRODUCER and CONSUMER spans: messaging.destination.name, the span's
//     name.
//
// The two spans of a call or a message carry the receiving side's message
// (flush, and session's pairing across files). A span none of whose
// candidates is declared is outside the signature: its candidates, joined
// by candidateSep, are the name it is ignored and tallied under, which no
// signature declares (a declared name holds no control character), and
// which a Tally splits back so that a summary lists them all.
// Options.MessageAttr forces one attribute (the span's name when it is
// absent). A lifeline is named alike by service.name, then
// process.executable.name (what an SDK whose service is not named reports
// as unknown_service:NAME); Options.LifelineAttr forces one.

// The attributes of the OpenTelemetry semantic conventions that the naming
// rule reads besides ServiceName, MessagingDestination, RPCMethod and
// HTTPRoute.
const (
	HTTPRequestMethod     = "http.request.method"
	HTTPMethod            = "http.method" // before semantic conventions 1.21
	RPCService            = "rpc.service"
	ProcessExecutableName = "process.executable.name"
)

// candidateSep separates the candidate names of a span none of whose
// names is declared.
const candidateSep = '\x00'

// maxInterned bounds the joined candidate names a naming keeps.
const maxInterned = 1 << 12

// naming resolves the candidate names of spans against a signature's
// names, without allocating for a span whose name is declared, nor for
// the candidates of an undeclared one met recently.
type naming struct {
	table    *nameTable
	buf      []byte // a composite candidate
	joined   []byte // the candidates tried, none declared
	found    string // the declared name found
	interned map[string]string
}

func newNaming(t *nameTable) *naming {
	return &naming{table: t, interned: map[string]string{}}
}

// reset starts the candidates of a new span.
func (n *naming) reset() { n.joined, n.found = n.joined[:0], "" }

// try reports whether cand (absent when empty) is declared, and keeps it,
// or else adds it to the candidates tried.
func (n *naming) try(cand string) bool {
	if cand == "" {
		return false
	}
	if i, ok := n.table.findString(cand); ok {
		n.found = n.table.names[i]
		return true
	}
	n.tried(cand)
	return false
}

// tryBuf is try for the composite candidate in n.buf.
func (n *naming) tryBuf() bool {
	if len(n.buf) == 0 {
		return false
	}
	if i, ok := n.table.find(n.buf); ok {
		n.found = n.table.names[i]
		return true
	}
	n.tried(string(n.buf)) // only for spans outside the signature
	return false
}

// tried adds cand to the candidates tried, once.
func (n *naming) tried(cand string) {
	for rest := n.joined; len(rest) > 0; {
		i := strings.IndexByte(string(rest), candidateSep)
		if i < 0 {
			i = len(rest)
		}
		if string(rest[:i]) == cand {
			return
		}
		rest = rest[min(i+1, len(rest)):]
	}
	if len(n.joined) > 0 {
		n.joined = append(n.joined, candidateSep)
	}
	n.joined = append(n.joined, cand...)
}

// result returns the name found, else the candidates tried, joined (a
// string made once for the candidates met recently).
func (n *naming) result() string {
	if n.found != "" {
		return n.found
	}
	if s, ok := n.interned[string(n.joined)]; ok {
		return s
	}
	if len(n.interned) == maxInterned {
		clear(n.interned)
	}
	s := string(n.joined)
	n.interned[s] = s
	return s
}

// message returns the message of a span of kind k named name, whose
// attributes (OTLP) or tags (Jaeger, Zipkin) lookup reads: see the
// naming rule above.
func (r *spanReader) message(k SpanKind, lookup func(key string) (string, bool), name string) string {
	if r.messageAttr != "" {
		if m, ok := lookup(r.messageAttr); ok {
			return m
		}
		return name
	}
	n := r.msgNames
	n.reset()
	switch k {
	case SpanProducer, SpanConsumer:
		if v, _ := lookup(MessagingDestination); n.try(v) || n.try(name) {
			return n.found
		}
		return n.result()
	}
	route, _ := lookup(HTTPRoute)
	if n.try(route) {
		return n.found
	}
	if route != "" {
		method, ok := lookup(HTTPRequestMethod)
		if !ok {
			method, ok = lookup(HTTPMethod)
		}
		if ok && method != "" {
			n.buf = append(append(append(n.buf[:0], method...), ' '), route...)
			if n.tryBuf() {
				return n.found
			}
		}
	}
	if n.try(name) {
		return n.found
	}
	method, _ := lookup(RPCMethod)
	if service, ok := lookup(RPCService); ok && service != "" && method != "" {
		n.buf = append(append(append(n.buf[:0], service...), '/'), method...)
		if n.tryBuf() {
			return n.found
		}
	}
	if n.try(method) {
		return n.found
	}
	if v, _ := lookup(MessagingDestination); n.try(v) {
		return n.found
	}
	return n.result()
}

// lifeline returns the lifeline of a span whose resource (OTLP, the Go
// SDK's stdouttrace; a Jaeger process) lookup reads: the first of
// service.name and process.executable.name that the signature declares,
// else service.name (outside the signature); LifelineAttr forces one. ok
// is false when the resource names neither, for the caller to look at the
// span's own attributes.
func (r *spanReader) lifeline(lookup func(key string) (string, bool)) (l string, ok bool) {
	if r.lifelineAttr != "" {
		return lookup(r.lifelineAttr)
	}
	service, ok := lookup(ServiceName)
	if ok {
		if _, declared := r.b.lifelines.findString(service); declared {
			return service, true
		}
	}
	if exe, eok := lookup(ProcessExecutableName); eok {
		if _, declared := r.b.lifelines.findString(exe); declared {
			return exe, true
		}
	}
	return service, ok
}

// Candidates returns the names of an undeclared message as readers tally
// it: the candidate names of a span none of whose names is declared, else
// the one name.
func Candidates(name string) []string {
	return strings.Split(name, string(candidateSep))
}

// undeclaredMessage says that no candidate name of m is declared, for
// Options.Strict's errors.
func undeclaredMessage(m []byte) string {
	names := Candidates(string(m))
	if len(names) == 1 {
		return fmt.Sprintf("message %q is not declared in the signature", m)
	}
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "no name of the span is a message declared in the signature: " + strings.Join(q, ", ")
}
