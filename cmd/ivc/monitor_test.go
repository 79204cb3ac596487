package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	grpcgzip "google.golang.org/grpc/encoding/gzip"
)

// runMonitor runs ivc monitor with args (receivers on 127.0.0.1:0, sessions
// closed at shutdown only, however slow a loaded machine makes the run),
// calls send with the addresses it listens on, then stops it as SIGTERM
// does and returns its output.
func runMonitor(t *testing.T, args []string, send func(addrs map[string]string)) (stdout, stderr string) {
	t.Helper()
	return runMonitorIn(t, strings.NewReader(""), args, send)
}

// runMonitorIn is runMonitor with stdin as standard input.
func runMonitorIn(t *testing.T, stdin io.Reader, args []string, send func(addrs map[string]string)) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, status := runMonitorStatus(t, stdin, args, send)
	if status != 0 {
		t.Fatalf("ivc monitor exited %d: %s", status, stderr)
	}
	return stdout, stderr
}

// runMonitorStatus is runMonitorIn, returning the exit status: with
// --metrics among args, send is called once it listens too. A monitor that
// has not exited a minute after it was stopped fails the test.
func runMonitorStatus(t *testing.T, stdin io.Reader, args []string, send func(addrs map[string]string)) (stdout, stderr string, status int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	addrs := map[string]string{}
	listening := make(chan struct{}, 8)
	oldListening := monitorListening
	defer func() { monitorListening = oldListening }()
	monitorListening = func(what, addr string) {
		mu.Lock()
		addrs[what] = addr
		mu.Unlock()
		listening <- struct{}{}
	}
	var out, errs lockedBuffer
	done := make(chan int, 1)
	go func() {
		e := testEnv(&out, &errs)
		e.stdin = stdin
		e.interrupted = func() (context.Context, context.CancelFunc) { return ctx, cancel }
		done <- run(append([]string{"monitor", "--engine", "automata", "--session-idle", "1h", "--otlp-grpc", "127.0.0.1:0", "--otlp-http", "127.0.0.1:0"}, args...), e)
	}()
	listeners := 2
	if slices.Contains(args, "--metrics") {
		listeners++
	}
	for range listeners {
		select {
		case <-listening:
		case status := <-done:
			t.Fatalf("ivc monitor exited %d: %s", status, errs.String())
		}
	}
	mu.Lock()
	send(addrs)
	mu.Unlock()
	cancel()
	select {
	case status = <-done:
	case <-time.After(time.Minute):
		t.Fatalf("ivc monitor still running a minute after it was stopped: %s", errs.String())
	}
	return out.String(), errs.String(), status
}

// analyzeRecords returns the records of ivc analyze --format json on log,
// by session, without the fields that vary.
func analyzeRecords(t *testing.T, log string) map[string]string {
	t.Helper()
	var out, errs bytes.Buffer
	run([]string{"analyze", "--engine", "automata", "--format", "json", filepath.Join(testdata, "abp/abp.hsf"), log}, testEnv(&out, &errs))
	return records(t, out.String(), false)
}

func records(t *testing.T, out string, monitor bool) map[string]string {
	t.Helper()
	recs := map[string]string{}
	for line := range strings.Lines(out) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if monitor {
			if r["revision"] != 1.0 || r["closed_by"] != "shutdown" {
				t.Errorf("record %s: want revision 1 closed by shutdown", line)
			}
			delete(r, "revision")
			delete(r, "closed_by")
			delete(r, "latency_us")
		}
		delete(r, "file")
		delete(r, "elapsed_us")
		// Where a Fail stopped, its time kept: the file and line of the
		// monitor's are its sources' (a request, a stream's line).
		for _, key := range []string{"at", "repair"} { // a deleted event's origin too
			if at, ok := r[key].([]any); ok {
				for _, s := range at {
					delete(s.(map[string]any), "file")
					delete(s.(map[string]any), "line")
				}
			}
		}
		delete(r, "setup_us")
		b, _ := json.Marshal(r)
		id, _ := r["session"].(string)
		if _, dup := recs[id]; dup {
			t.Errorf("session %q judged twice", id)
		}
		recs[id] = string(b)
	}
	return recs
}

func sameRecords(t *testing.T, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d sessions, want %d", len(got), len(want))
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("session %q:\n got %s\nwant %s", id, got[id], w)
		}
	}
}

// otlpRequests returns the requests of the shipped OTLP log, one a line.
func otlpRequests(t *testing.T) []ptraceotlp.ExportRequest {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(testdata, "logs/abp.otlp.json"))
	if err != nil {
		t.Fatal(err)
	}
	var reqs []ptraceotlp.ExportRequest
	var u ptrace.JSONUnmarshaler
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		td, err := u.UnmarshalTraces(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, ptraceotlp.NewExportRequestFromTraces(td))
	}
	return reqs
}

// TestMonitorReplay replays the shipped logs through ivc monitor over
// OTLP/HTTP (JSON, and gzipped protobuf), OTLP/gRPC (gzip) and a followed
// JSON Lines file: every record is ivc analyze's. The engine is fixed:
// with --engine auto, a partition whose automaton takes longer than
// check.DefaultAutoBuildTimeout to build (a loaded machine) is judged by
// the runtime engine, in either command.
func TestMonitorReplay(t *testing.T) {
	spec := filepath.Join(testdata, "abp/abp.hsf")
	otlp := analyzeRecords(t, filepath.Join(testdata, "logs/abp.otlp.json"))
	post := func(t *testing.T, addr string, proto bool) func(map[string]string) {
		return func(addrs map[string]string) {
			for _, req := range otlpRequests(t) {
				var body []byte
				var err error
				ct := "application/json"
				if proto {
					ct = "application/x-protobuf"
					body, err = req.MarshalProto()
					var z bytes.Buffer
					zw := gzip.NewWriter(&z)
					zw.Write(body)
					zw.Close()
					body = z.Bytes()
				} else {
					body, err = req.MarshalJSON()
				}
				if err != nil {
					t.Fatal(err)
				}
				hr, _ := http.NewRequest("POST", "http://"+addrs["OTLP/HTTP"]+"/v1/traces", bytes.NewReader(body))
				hr.Header.Set("Content-Type", ct)
				if proto {
					hr.Header.Set("Content-Encoding", "gzip")
				}
				resp, err := http.DefaultClient.Do(hr)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != 200 {
					t.Fatalf("POST: %s", resp.Status)
				}
			}
		}
	}
	t.Run("http-json", func(t *testing.T) {
		out, _ := runMonitor(t, []string{spec}, post(t, "", false))
		sameRecords(t, records(t, out, true), otlp)
	})
	t.Run("http-proto-gzip", func(t *testing.T) {
		out, _ := runMonitor(t, []string{spec}, post(t, "", true))
		sameRecords(t, records(t, out, true), otlp)
	})
	t.Run("grpc", func(t *testing.T) {
		out, _ := runMonitor(t, []string{spec}, func(addrs map[string]string) {
			cc, err := grpc.NewClient(addrs["OTLP/gRPC"], grpc.WithTransportCredentials(insecure.NewCredentials()),
				grpc.WithDefaultCallOptions(grpc.UseCompressor(grpcgzip.Name)))
			if err != nil {
				t.Fatal(err)
			}
			defer cc.Close()
			client := ptraceotlp.NewGRPCClient(cc)
			for _, req := range otlpRequests(t) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				resp, err := client.Export(ctx, req)
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				if n := resp.PartialSuccess().RejectedSpans(); n != 0 {
					t.Fatalf("%d spans rejected", n)
				}
			}
		})
		sameRecords(t, records(t, out, true), otlp)
	})
	t.Run("follow-jsonl", func(t *testing.T) {
		log := filepath.Join(testdata, "logs/abp.jsonl")
		out, stderr := runMonitor(t, []string{"--follow", log, spec}, func(map[string]string) {})
		sameRecords(t, records(t, out, true), analyzeRecords(t, log))
		if !strings.Contains(stderr, "1001 events received = 1001 judged + 0 ignored + 0 malformed + 0 late") {
			t.Errorf("summary: %s", stderr)
		}
	})
}

// TestMonitorStdinShutdown: events that standard input gives while ivc
// monitor shuts down are judged (their sessions closed at shutdown) or
// counted, never dropped: the summary line adds up.
func TestMonitorStdinShutdown(t *testing.T) {
	pr, pw := io.Pipe()
	stop := make(chan struct{})
	var written atomic.Int64
	line := func(i int) []byte {
		return []byte(fmt.Sprintf(`{"session":"s%d","action":"S?d"}`+"\n", i))
	}
	out, stderr := runMonitorIn(t, pr, []string{"--follow", "-", filepath.Join(testdata, "abp/abp.hsf")}, func(map[string]string) {
		if _, err := pw.Write(line(0)); err != nil {
			t.Fatal(err)
		}
		written.Add(1)
		go func() { // on while the monitor shuts down, for about 200 ms:
			// it ends when standard input has been quiet for a while
			for i := 1; i < 200; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := pw.Write(line(i)); err != nil {
					return
				}
				written.Add(1)
				time.Sleep(time.Millisecond)
			}
		}()
	})
	close(stop)
	pw.Close()
	var n, judged, ignored, malformed, late, dups int64
	i := strings.Index(stderr, " events received = ")
	if i < 0 {
		t.Fatalf("no summary: %s", stderr)
	}
	j := strings.LastIndex(stderr[:i], " ")
	if _, err := fmt.Sscanf(stderr[j+1:], "%d events received = %d judged + %d ignored + %d malformed + %d late + %d duplicates",
		&n, &judged, &ignored, &malformed, &late, &dups); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	t.Logf("%d lines written, %d events received: %d judged, %d late", written.Load(), n, judged, late)
	if n < 1 || n != judged+ignored+malformed+late+dups || n > written.Load() {
		t.Errorf("summary: %s", stderr)
	}
	if recs := strings.Count(out, "\n"); int64(recs) != judged {
		t.Errorf("%d records for %d events judged, one a session", recs, judged)
	}
}

// TestMonitorSIGTERM: the ivc binary sent SIGTERM judges what it holds and
// exits 0 (main's handler of interruptions, which exits 130 at once, leaves
// ivc monitor to stop on its own).
func TestMonitorSIGTERM(t *testing.T) {
	hsf, err := filepath.Abs(filepath.Join(testdata, "abp/abp.hsf"))
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "app.jsonl")
	if err := os.WriteFile(log, []byte(`{"session":"x","action":"S?d"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("ivc", "monitor", "--otlp-grpc", "", "--otlp-http", "", "--metrics", "127.0.0.1:0", "--follow", log, hsf)
	var out bytes.Buffer
	cmd.Stdout = &out
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	var addr string
	for addr == "" && lines.Scan() {
		addr, _ = strings.CutPrefix(lines.Text(), "ivc monitor: metrics listening on ")
	}
	// Once the event is read (the metrics say so), SIGTERM.
	for deadline := time.Now().Add(30 * time.Second); ; {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), "ivc_monitor_events_received_total 1\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the event is never read: %s", body)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var rest strings.Builder
	for lines.Scan() {
		rest.WriteString(lines.Text() + "\n")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, rest.String())
	}
	if !strings.Contains(out.String(), `"session":"x","verdict":"WeakPass"`) || !strings.Contains(out.String(), `"closed_by":"shutdown"`) {
		t.Errorf("records: %s", out.String())
	}
	if !strings.Contains(rest.String(), "1 events received = 1 judged + 0 ignored + 0 malformed + 0 late") {
		t.Errorf("summary: %s", rest.String())
	}
}

// TestMonitorFollowOutput: an output that is a followed file (by any
// name, or before either exists) is refused at start: its records would
// be read back as events, without end.
func TestMonitorFollowOutput(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "app.jsonl")
	if err := os.WriteFile(log, []byte(`{"session":"x","action":"S?d"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(log, filepath.Join(dir, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	hsf := filepath.Join(testdata, "abp/abp.hsf")
	for _, c := range []struct{ follow, output string }{
		{log, log},
		{filepath.Join(dir, "link.jsonl"), filepath.Join(dir, ".", "app.jsonl")},
		{filepath.Join(dir, "new.jsonl"), filepath.Join(dir, "sub", "..", "new.jsonl")},
	} {
		var out, errs bytes.Buffer
		e := testEnv(&out, &errs)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		e.interrupted = func() (context.Context, context.CancelFunc) { return ctx, cancel }
		status := run([]string{"monitor", "--otlp-grpc", "", "--otlp-http", "", "--follow", c.follow, "--output", c.output, hsf}, e)
		cancel()
		if status != 2 || !strings.Contains(errs.String(), "is the followed file") {
			t.Errorf("--follow %s --output %s: exit status %d: %s", c.follow, c.output, status, errs.String())
		}
	}
}

// TestMonitorFollowBacklog: at SIGTERM, a followed file's backlog is read
// to its end and judged, however long that takes within the shutdown
// grace; past the grace, what is left is reported with exit status 2.
func TestMonitorFollowBacklog(t *testing.T) {
	const n = 40000 // a few seconds of one-event sessions, each a Fail
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"session":"s%d","action":"S?d"}`+"\n", i)
	}
	log := filepath.Join(t.TempDir(), "app.jsonl")
	if err := os.WriteFile(log, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	hsf := filepath.Join(testdata, "abp/abp.hsf")
	monitor := func(grace string) (int, string) {
		var out, errs bytes.Buffer
		e := testEnv(&out, &errs)
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // SIGTERM as the monitor starts
		e.interrupted = func() (context.Context, context.CancelFunc) { return ctx, cancel }
		status := run([]string{"monitor", "--otlp-grpc", "", "--otlp-http", "", "--shutdown-grace", grace, "--follow", log, hsf}, e)
		return status, errs.String()
	}
	start := time.Now()
	status, stderr := monitor("1m")
	t.Logf("%d events read and judged in %v", n, time.Since(start))
	want := fmt.Sprintf("%d events received = %d judged + 0 ignored + 0 malformed + 0 late", n, n)
	if status != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit status %d, want 0 and %q: %s", status, want, stderr[max(0, len(stderr)-1000):])
	}
	status, stderr = monitor("1ms")
	if status != 2 || !strings.Contains(stderr, "left unread at the end of the shutdown grace") {
		t.Errorf("exit status %d, want 2 and what was left unread: %s", status, stderr[max(0, len(stderr)-1000):])
	}
}

// TestMonitorText: --format text prints ivc analyze's text lines, not
// the JSON records; a Fail goes to standard output only.
func TestMonitorText(t *testing.T) {
	log := filepath.Join(testdata, "logs/abp.jsonl")
	out, stderr := runMonitor(t, []string{"--format", "text", "--follow", log, filepath.Join(testdata, "abp/abp.hsf")}, func(map[string]string) {})
	if strings.Contains(out, `{"file"`) {
		t.Errorf("JSON records in text output:\n%s", out)
	}
	fail := regexp.MustCompile(`(?m)^\S+abp.jsonl \(session trace1_error_1\): Fail \(0 nodes, revision 1, closed by shutdown, \d+ µs after its last event\): LocalError: \[R\] cannot read event 76 \(R!zero, 00:08:53.604, \S+abp.jsonl:807\)`)
	if !fail.MatchString(out) {
		t.Errorf("no Fail line in:\n%s", out)
	}
	if strings.Contains(stderr, "Fail (") {
		t.Errorf("the Fail printed twice, on stderr too:\n%s", stderr)
	}
}
