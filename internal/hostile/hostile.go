// Package hostile writes hostile logs: small gzip
// files whose content, once decompressed and read, would take gigabytes if
// reading were not bounded. Tests and CI run ivc analyze on them under a
// small --max-memory and check its peak memory. It also writes a hostile
// specification, a seq along many lifelines with one-event sessions
// (WriteSeq), which costs the automata engine what it does not cost the
// runtime engine.
//
//	err := hostile.Write(dir, hostile.Small) // dir/jaeger-huge.json.gz, ...
//	err = hostile.WriteSeq(dir, 1000, 200)   // dir/seq1000.hsf, .hif, -200.jsonl
package hostile

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Scale sizes the reproducers.
type Scale struct {
	HugeValue int // bytes of one huge value (an OTLP attribute, a Jaeger span's empty tags), under MaxLine
	Values    int // how many such values a file holds
	Name      int // bytes of a Jaeger operation name (a message)
	Names     int // spans with such a name
	Spans     int // spans of the OTLP document with many small spans
	Sessions  int // one-event sessions of the JSON Lines log
	Events    int // events of the one session of a JSON Lines log
}

// Full is the scale of the reproducers (about 1 MB of gzip for
// each huge-value file, 7.5 MB for the 3M sessions); Small is the scale of
// the tests, run with --max-memory 32MiB: its huge values are over the
// limit of one value then (512 KiB; without it, one takes a gigabyte),
// its names under it (96 MiB of them, held), its document and session
// over their limits (8 MiB of spans, 256Ki events), and its sessions over
// the joiner's budget (it spills).
var (
	Full  = Scale{HugeValue: 15 << 20, Values: 64, Name: 15 << 20, Names: 64, Spans: 4_000_000, Sessions: 3_000_000, Events: 20_000_000}
	Small = Scale{HugeValue: 15 << 20, Values: 2, Name: 384 << 10, Names: 256, Spans: 200_000, Sessions: 200_000, Events: 300_000}
)

// A Reproducer is one hostile log: its file name and what writes it.
type Reproducer struct {
	Name  string
	Write func(w *bufio.Writer, s Scale)
}

// Reproducers are the hostile logs, each read with the ABP signature
// (testdata/abp/abp.hsf: lifelines S, K, L, R; messages d_zero, zero,
// d_one, one, d, ce).
var Reproducers = []Reproducer{
	{"jaeger-huge.json.gz", jaegerHuge},
	{"jaeger-tags.json.gz", jaegerTags},
	{"otlp-spans.json.gz", otlpSpans},
	{"otlp-huge.jsonl.gz", otlpHuge},
	{"sessions.jsonl.gz", sessions},
	{"session.jsonl.gz", session},
}

// Write writes every reproducer at scale s into dir.
func Write(dir string, s Scale) error {
	for _, r := range Reproducers {
		if err := WriteFile(filepath.Join(dir, r.Name), r, s); err != nil {
			return err
		}
	}
	return nil
}

// WriteFile writes one reproducer, gzipped, to path.
func WriteFile(path string, r Reproducer, s Scale) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	z, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	w := bufio.NewWriterSize(z, 1<<20)
	r.Write(w, s)
	err = w.Flush()
	if cerr := z.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// repeat writes n bytes of b's repetition.
func repeat(w io.Writer, c byte, n int) {
	chunk := strings.Repeat(string(c), 64<<10)
	for n > 0 {
		k := min(n, len(chunk))
		io.WriteString(w, chunk[:k])
		n -= k
	}
}

// jaegerHuge is one Jaeger trace of Names spans, each with an operation
// name (its message) of Name bytes: every span is held until the end of
// its file.
func jaegerHuge(w *bufio.Writer, s Scale) {
	w.WriteString(`{"data":[{"traceID":"01","processes":{"p1":{"serviceName":"S"}},"spans":[`)
	for i := range s.Names {
		if i > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, `{"traceID":"01","spanID":"%02x","processID":"p1","startTime":%d,"tags":[{"key":"span.kind","type":"string","value":"producer"}],"operationName":"`, i+1, int64(1700000000000000)+int64(i))
		repeat(w, 'd', s.Name)
		w.WriteString(`"}`)
	}
	w.WriteString("]}]}\n")
}

// jaegerTags is one Jaeger span with an array of HugeValue/3 empty tags
// ({}): a value under the limit that decodes to many times its size.
func jaegerTags(w *bufio.Writer, s Scale) {
	w.WriteString(`{"data":[{"traceID":"01","processes":{"p1":{"serviceName":"S"}},"spans":[`)
	for i := range s.Values {
		if i > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, `{"traceID":"01","spanID":"%02x","processID":"p1","startTime":%d,"operationName":"d","tags":[{"key":"span.kind","type":"string","value":"producer"}`, i+1, int64(1700000000000000)+int64(i))
		for range s.HugeValue / 3 {
			w.WriteString(",{}")
		}
		w.WriteString(`]}`)
	}
	w.WriteString("]}]}\n")
}

// otlpSpans is one OTLP document over many lines of Spans small spans of
// one trace, each in a resource of its own (the resource repeated per
// span): one document, one session, many events.
func otlpSpans(w *bufio.Writer, s Scale) {
	w.WriteString("{\"resourceSpans\":[\n")
	for i := range s.Spans {
		if i > 0 {
			w.WriteString(",\n")
		}
		fmt.Fprintf(w, `{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"S"}}]},"scopeSpans":[{"spans":[{"traceId":"%032x","spanId":"%016x","name":"d","kind":4,"startTimeUnixNano":"1700000000000000000"}]}]}`, 1, i%16+1)
	}
	w.WriteString("\n]}\n")
}

// otlpHuge is OTLP one object a line, each with a resource whose
// attribute holds a string of HugeValue bytes, repeated: a line under
// the limit that the decoder copies.
func otlpHuge(w *bufio.Writer, s Scale) {
	for i := range s.Values {
		w.WriteString(`{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"S"}},{"key":"x","value":{"stringValue":"`)
		repeat(w, 'x', s.HugeValue)
		fmt.Fprintf(w, `"}}]},"scopeSpans":[{"spans":[{"traceId":"%032x","spanId":"%016x","name":"d","kind":4,"startTimeUnixNano":"%d"}]}]}]}`+"\n", i+1, i+1, int64(1700000000000000000)+int64(i))
	}
}

// sessions is a JSON Lines log of Sessions one-event sessions.
func sessions(w *bufio.Writer, s Scale) {
	for i := range s.Sessions {
		fmt.Fprintf(w, `{"session":"s%d","action":"S!d","seq":1}`+"\n", i)
	}
}

// session is a JSON Lines log of one session of Events events.
func session(w *bufio.Writer, s Scale) {
	for range s.Events {
		w.WriteString(`{"session":"s","action":"S!d","seq":1}` + "\n")
	}
}

// SeqSpec returns the path of WriteSeq's specification of n
// lifelines in dir, without its extension.
func SeqSpec(dir string, n int) string { return filepath.Join(dir, fmt.Sprintf("seq%d", n)) }

// SeqAction is the action of WriteSeq's session i on n lifelines.
func SeqAction(i, n int) string {
	if i%2 == 0 {
		return fmt.Sprintf("l%d!m", i*7%n)
	}
	return fmt.Sprintf("l%d?m", i*7%n)
}

// WriteSeq writes into dir a specification of n lifelines l0 … l(n-1)
// and one message m, seqN.hsf and seqN.hif (a seq of n messages along the
// ring: l0 sends m to l1, then l1 to l2, …, then l(n-1) to l0), and a JSON
// Lines log of k one-event sessions on different lifelines, seqN-K.jsonl:
// session i is an emission of l(7i mod n) when i is even (a Fail, but for
// l0), a reception otherwise (a WeakPass, but for l0).
func WriteSeq(dir string, n, k int) error {
	var sig, hif, log strings.Builder
	sig.WriteString("@message{\n\tm\n}\n@lifeline{\n\t")
	hif.WriteString("seq(\n")
	for i := range n {
		if i > 0 {
			sig.WriteString(";")
			hif.WriteString(",\n")
		}
		fmt.Fprintf(&sig, "l%d", i)
		fmt.Fprintf(&hif, "\tl%d -- m -> l%d", i, (i+1)%n)
	}
	sig.WriteString("\n}\n")
	hif.WriteString("\n)\n")
	for i := range k {
		fmt.Fprintf(&log, `{"session":"s%d","action":"%s","seq":1}`+"\n", i, SeqAction(i, n))
	}
	base := SeqSpec(dir, n)
	for name, text := range map[string]string{base + ".hsf": sig.String(), base + ".hif": hif.String(),
		fmt.Sprintf("%s-%d.jsonl", base, k): log.String()} {
		if err := os.WriteFile(name, []byte(text), 0o666); err != nil {
			return err
		}
	}
	return nil
}
