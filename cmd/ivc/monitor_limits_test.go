package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// TestMonitorShutdownGrace: at shutdown, requests under way that never end
// (an OTLP/gRPC stream that never sends its message, an OTLP/HTTP body
// never sent whole) are waited for --shutdown-grace, then their
// connections closed, and the sessions received are judged and written.
func TestMonitorShutdownGrace(t *testing.T) {
	spec := filepath.Join(testdata, "abp/abp.hsf")
	log := filepath.Join(testdata, "logs/abp.otlp.json")
	var stopped time.Time
	var closers []func()
	out, stderr := runMonitor(t, []string{"--shutdown-grace", "300ms", spec}, func(addrs map[string]string) {
		for _, req := range otlpRequests(t) {
			body, err := req.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.Post("http://"+addrs["OTLP/HTTP"]+"/v1/traces", "application/json", strings.NewReader(string(body)))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("POST: %s", resp.Status)
			}
		}
		cc, err := grpc.NewClient(addrs["OTLP/gRPC"], grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		closers = append(closers, cancel, func() { cc.Close() })
		if _, err := cc.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true},
			"/opentelemetry.proto.collector.trace.v1.TraceService/Export"); err != nil {
			t.Fatal(err)
		}
		conn, err := net.Dial("tcp", addrs["OTLP/HTTP"])
		if err != nil {
			t.Fatal(err)
		}
		closers = append(closers, func() { conn.Close() })
		fmt.Fprintf(conn, "POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
		time.Sleep(200 * time.Millisecond) // the stream and the request under way
		stopped = time.Now()
	})
	took := time.Since(stopped)
	for _, c := range closers {
		c()
	}
	t.Logf("stopped in %v", took)
	if took > 20*time.Second {
		t.Errorf("stopped in %v, with a grace of 300ms", took)
	}
	sameRecords(t, records(t, out, true), analyzeRecords(t, log))
	if !strings.Contains(stderr, "1001 events received = 1001 judged") {
		t.Errorf("summary: %s", stderr)
	}
}

// TestMonitorFullDisk: records that cannot be written (--output on a full
// disk: /dev/full) are reported on stderr as it happens, counted in
// /metrics, fail /healthz, and make the exit status 2.
func TestMonitorFullDisk(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	spec := filepath.Join(testdata, "abp/abp.hsf")
	log := filepath.Join(t.TempDir(), "app.jsonl")
	if err := os.WriteFile(log, []byte(`{"session":"x","action":"S?d"}`+"\n"+`{"session":"y","action":"S?d"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	get := func(url string) (int, string) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	_, stderr, status := runMonitorStatus(t, strings.NewReader(""), []string{"--output", "/dev/full", "--metrics", "127.0.0.1:0",
		"--session-idle", "20ms", "--follow", log, spec}, func(addrs map[string]string) {
		base := "http://" + addrs["metrics"]
		for deadline := time.Now().Add(30 * time.Second); ; {
			_, metrics := get(base + "/metrics")
			if strings.Contains(metrics, "ivc_monitor_records_unwritten_total 2\n") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("records never judged: %s", metrics)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if code, body := get(base + "/healthz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "records not written to /dev/full") {
			t.Errorf("/healthz: %d %s", code, body)
		}
	})
	if status != 2 || !strings.Contains(stderr, "ivc monitor: 2 records not written to /dev/full") {
		t.Errorf("exit status %d: %s", status, stderr)
	}
	if strings.Count(stderr, "no space left on device") != 1 {
		t.Errorf("the error reported once, as it happens: %s", stderr)
	}
}
