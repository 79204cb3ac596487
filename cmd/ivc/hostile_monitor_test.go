//go:build linux

package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
)

// rawMessage is a protobuf message already encoded, as pdata's gRPC codec
// (registered as "proto") sends it and reads an answer into it.
type rawMessage []byte

func (m rawMessage) SizeProto() int            { return len(m) }
func (m rawMessage) MarshalProto(b []byte) int { return copy(b, m) }
func (m *rawMessage) UnmarshalProto(b []byte) error {
	*m = append((*m)[:0], b...)
	return nil
}

// emptySpansProto returns an OTLP request of n empty spans, 2 bytes each.
func emptySpansProto(n int) []byte {
	span := protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), nil)
	spans := bytes.Repeat(span, n)
	scope := protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), spans)
	return protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), scope)
}

// Limits of TestHostileMonitor: the address space of the monitor and what
// it may take at its peak (without a bound on decoding, the first request
// alone decoded to about 8 GB).
const (
	hostileMonitorAS  = 3 << 30
	hostileMonitorRSS = 512 << 20
)

// TestHostileMonitor runs ivc monitor in a child process under an
// address-space cap (ulimit -v) and sends it what decoded to gigabytes: a
// 64 KB gzip OTLP/HTTP request of 33 million empty spans (66 MB of
// protobuf), the same as JSON ({} spans), and 12 OTLP/gRPC requests of 2
// million empty spans (4 MB each) at once. Each is refused (413,
// RESOURCE_EXHAUSTED), the monitor answers a real request after them,
// exits 0 on SIGTERM, and its peak resident memory stays under 512 MiB.
func TestHostileMonitor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 170 MB of requests")
	}
	ivc, err := exec.LookPath("ivc") // the test binary as ivc (TestMain)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := filepath.Abs(filepath.Join(testdata, "abp", "abp.hsf"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `ulimit -v "$1" && shift && exec "$@"`, "sh", strconv.Itoa(hostileMonitorAS>>10),
		ivc, "monitor", "--otlp-grpc", "127.0.0.1:0", "--otlp-http", "127.0.0.1:0", "--metrics", "127.0.0.1:0", spec)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stderr)
	addrs := map[string]string{}
	for len(addrs) < 3 && lines.Scan() {
		if what, addr, ok := strings.Cut(strings.TrimPrefix(lines.Text(), "ivc monitor: "), " listening on "); ok {
			addrs[what] = addr
		}
	}
	var rest strings.Builder
	done := make(chan struct{})
	go func() {
		defer close(done)
		for lines.Scan() {
			rest.WriteString(lines.Text() + "\n")
		}
	}()
	post := func(ct string, body []byte) int {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(body)
		zw.Close()
		req, _ := http.NewRequest(http.MethodPost, "http://"+addrs["OTLP/HTTP"]+"/v1/traces", &z)
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Content-Encoding", "gzip")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post("application/x-protobuf", emptySpansProto(33_000_000)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("33 million empty spans, protobuf: %d", code)
	}
	if code := post("application/json", []byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{}`+strings.Repeat(`,{}`, 15_000_000)+`]}]}]}`)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("15 million empty spans, JSON: %d", code)
	}
	cc, err := grpc.NewClient(addrs["OTLP/gRPC"], grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	msg := rawMessage(emptySpansProto(2_000_000))
	var wg sync.WaitGroup
	for range 12 {
		wg.Go(func() {
			var resp rawMessage
			err := cc.Invoke(context.Background(), "/opentelemetry.proto.collector.trace.v1.TraceService/Export", &msg, &resp)
			if status.Code(err) != codes.ResourceExhausted {
				t.Errorf("2 million empty spans, gRPC: %v", err)
			}
		})
	}
	wg.Wait()
	if code := post("application/json", []byte(`{"resourceSpans":[]}`)); code != http.StatusOK {
		t.Errorf("after them: %d", code)
	}
	resp, err := http.Get("http://" + addrs["metrics"] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(metrics), `ivc_monitor_rejected_requests_total{reason="too_large"} 14`) {
		t.Errorf("metrics:\n%s", metrics)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("ivc monitor still running a minute after SIGTERM")
	}
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		t.Fatalf("%v: %s", err, rest.String())
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
	t.Logf("peak RSS %d MiB", rss>>20)
	if rss > hostileMonitorRSS {
		t.Errorf("peak RSS %d MiB, more than %d MiB", rss>>20, hostileMonitorRSS>>20)
	}
}
