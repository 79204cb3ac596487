package logs

import (
	"bytes"
	"os"
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

// BenchmarkJSONWireDecode: passes 1 and 2 of the reading of OTLP/JSON from
// its bytes, on the lines of abp.otlp.json.
func BenchmarkJSONWireDecode(b *testing.B) {
	data, err := os.ReadFile("../testdata/logs/abp.otlp.json")
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	sig, _ := interaction.NewSignature([]string{"R", "S", "K"}, []string{"ce", "one", "d"}, nil)
	t, err := NewTraceReader("wire", Options{Sig: sig}, nil)
	if err != nil {
		b.Fatal(err)
	}
	w := t.r.wireReader()
	spans := 0
	for _, l := range lines {
		if !w.decodeJSON(t.r, l, false) {
			b.Fatal("not decoded")
		}
		spans += len(w.spans)
		w.reset()
	}
	b.ResetTimer()
	for b.Loop() {
		for _, l := range lines {
			w.decodeJSON(t.r, l, false)
			w.reset()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*spans), "ns/span")
}
