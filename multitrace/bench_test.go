package multitrace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

type benchFile struct {
	name string
	src  []byte
	sig  *interaction.Signature
}

// longTraces loads every .htf of corpus/long-traces/*/ with its signature.
func longTraces(b *testing.B) ([]benchFile, int64) {
	dir := filepath.Join(corpusDir(b), "long-traces")
	sigs := map[string]*interaction.Signature{
		"abp":   readSig(b, filepath.Join(dir, "abp.hsf")),
		"rover": readSig(b, filepath.Join(dir, "rover.hsf")),
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*.htf"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("no .htf under %s (%v)", dir, err)
	}
	var files []benchFile
	var total int64
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		sig := sigs["abp"]
		if strings.Contains(p, "rover") {
			sig = sigs["rover"]
		}
		files = append(files, benchFile{p, src, sig})
		total += int64(len(src))
	}
	return files, total
}

// BenchmarkParseLongTraces parses and resolves the long global traces of
// the corpus (ABP and rover, 250 to 10,000 actions) in one pass, as Read does.
func BenchmarkParseLongTraces(b *testing.B) {
	files, total := longTraces(b)
	b.SetBytes(total)
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		events = 0
		for _, f := range files {
			mt, err := ParseResolve(f.name, f.src, f.sig)
			if err != nil {
				b.Fatal(err)
			}
			events += mt.Len()
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkParseLongTracesTwoStep is Parse then File.Resolve on the same
// files: the syntax tree costs time and memory.
func BenchmarkParseLongTracesTwoStep(b *testing.B) {
	files, total := longTraces(b)
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			ff, err := Parse(f.name, f.src)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := ff.Resolve(f.name, f.sig); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseSyntaxLongTraces is Parse alone (ivc fmt).
func BenchmarkParseSyntaxLongTraces(b *testing.B) {
	files, total := longTraces(b)
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if _, err := Parse(f.name, f.src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// generated returns a multi-trace of n events over 4 lifelines in 2
// components, with a multi-action every 10 events, and its signature.
func generated(n int) ([]byte, *interaction.Signature) {
	sig, err := interaction.NewSignature(
		[]string{"Client", "Server", "Database", "Logger"},
		[]string{"request", "response", "query", "result", "log_entry"}, nil)
	if err != nil {
		panic(err)
	}
	var sb strings.Builder
	sb.WriteString("{\n\t[Client,Server] ")
	for i := range n / 2 {
		if i > 0 {
			sb.WriteByte('.')
		}
		switch i % 10 {
		case 9:
			sb.WriteString("{Client!request,Server?request}")
		case 0, 2, 4, 6:
			sb.WriteString("Client!request")
		default:
			sb.WriteString("Server?response")
		}
	}
	sb.WriteString(";\n\t[Database, Logger] ")
	for i := range n - n/2 {
		if i > 0 {
			sb.WriteByte('.')
		}
		fmt.Fprintf(&sb, "%s", [...]string{"Database?query", "Database!result", "Logger?log_entry"}[i%3])
	}
	sb.WriteString("\n}\n")
	return []byte(sb.String()), sig
}

// BenchmarkParseGenerated parses and resolves a generated 10,000-event
// multi-trace (no corpus needed).
func BenchmarkParseGenerated(b *testing.B) {
	src, sig := generated(10_000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		mt, err := ParseResolve("gen.htf", src, sig)
		if err != nil {
			b.Fatal(err)
		}
		if mt.Len() != 10_000 {
			b.Fatal(mt.Len())
		}
	}
}

// BenchmarkParseSyntaxGenerated is Parse alone on the generated multi-trace.
func BenchmarkParseSyntaxGenerated(b *testing.B) {
	src, _ := generated(10_000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("gen.htf", src); err != nil {
			b.Fatal(err)
		}
	}
}
