package monitor_test

import (
	"bufio"
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/receiver"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/spec"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// FuzzHTTPHandler: any OTLP/HTTP body, JSON or protobuf, is answered 200
// or 400 by the receiver, never a panic, and what it held is counted by the
// table: received = judged + ignored + malformed once the table is closed.
func FuzzHTTPHandler(f *testing.F) {
	src, err := os.ReadFile("../testdata/logs/abp.otlp.json")
	if err != nil {
		f.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<24)
	var u ptrace.JSONUnmarshaler
	for i := 0; sc.Scan() && i < 3; i++ {
		f.Add(false, bytes.Clone(sc.Bytes()))
		if td, err := u.UnmarshalTraces(sc.Bytes()); err == nil {
			b, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
			f.Add(true, b)
		}
	}
	f.Add(false, []byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"zz","kind":4}]}]}]}`))
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		f.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, proto bool, body []byte) {
		m, err := monitor.NewTable(c, logs.Options{Sig: sp.Sig}, monitor.Options{}, func(check.Outcome) {})
		if err != nil {
			t.Fatal(err)
		}
		ct := "application/json"
		if proto {
			ct = "application/x-protobuf"
		}
		req := httptest.NewRequest("POST", "/v1/traces", bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		w := httptest.NewRecorder()
		receiver.NewOTLP(m, 0).HTTPHandler().ServeHTTP(w, req)
		if w.Code != http.StatusOK && w.Code != http.StatusBadRequest {
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		m.Close()
		if n := m.Counts(); n.Received != n.Events+n.Ignored+n.Malformed+n.Late {
			t.Fatalf("counts %+v", n)
		}
	})
}
