package collector

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/open-telemetry/opentelemetry-collector-contrib/processor/groupbytraceprocessor"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/exporter/nopexporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/batchprocessor"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry/otelconftelemetry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// peerEnv names, in the environment of a child of the test binary, the
// Collector configuration the child runs instead of the tests: the peers
// run as processes of their own, so that their CPU time is theirs alone.
const peerEnv = "IVC_PEER_COLLECTOR"

func TestMain(m *testing.M) {
	if config := os.Getenv(peerEnv); config != "" {
		if err := runPeerCollector(config); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runPeerCollector runs a Collector of the OTLP receiver, the batch and
// groupbytrace processors and the nop exporter, with the Collector's own
// telemetry (its metrics are how the benchmark sees what it passed on),
// until SIGTERM.
func runPeerCollector(config string) error {
	col, err := otelcol.NewCollector(otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{Command: "ivc-peer-collector", Version: "test"},
		Factories: func() (otelcol.Factories, error) {
			var f otelcol.Factories
			var err error
			if f.Receivers, err = otelcol.MakeFactoryMap[receiver.Factory](otlpreceiver.NewFactory()); err != nil {
				return f, err
			}
			if f.Processors, err = otelcol.MakeFactoryMap[processor.Factory](batchprocessor.NewFactory(), groupbytraceprocessor.NewFactory()); err != nil {
				return f, err
			}
			if f.Exporters, err = otelcol.MakeFactoryMap[exporter.Factory](nopexporter.NewFactory()); err != nil {
				return f, err
			}
			f.Telemetry = otelconftelemetry.NewFactory()
			return f, nil
		},
		ConfigProviderSettings: otelcol.ConfigProviderSettings{ResolverSettings: confmap.ResolverSettings{
			URIs: []string{"file:" + config}, ProviderFactories: []confmap.ProviderFactory{fileprovider.NewFactory()}}},
	})
	if err != nil {
		return err
	}
	return col.Run(context.Background())
}

// peerRequests is the default load of BenchmarkPeers: 4,000 requests of
// loadBatch spans, 2,048,000 spans.
const (
	loadBatch     = 512
	spansPerOrder = testutil.ShopSpansPerOrder
	senders       = 4
)

// A peer is a receiver under the benchmark's load: a child process, the
// address of its OTLP/gRPC receiver, and how to tell that it has passed
// on (grouped, judged) everything it accepted.
type peer struct {
	cmd  *exec.Cmd
	addr string
	// done returns how many spans the peer has passed on so far, and
	// whether it has finished with them all.
	done func(spans int) (int, bool, error)
	// stop stops the child and checks what it says of the run; it
	// returns the sessions judged early, evicted to stay within the
	// memory bound (judged all the same, on what they had: the load's
	// requests carry whole orders).
	stop func(spans int) (evicted int, err error)
}

// ivcBinary builds ivc once for the benchmark, or takes the one
// IVC_PEER_BINARY names (to compare two builds, alternated).
var ivcBinary = sync.OnceValues(func() (string, error) {
	if bin := os.Getenv("IVC_PEER_BINARY"); bin != "" {
		return bin, nil
	}
	dir, err := os.MkdirTemp("", "ivc-peers")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "ivc")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/ivc")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/ivc: %v\n%s", err, out)
	}
	return bin, nil
})

// startCollectorPeer runs the test binary as a Collector configured by
// config (its receiver and its metrics on free loopback ports).
func startCollectorPeer(b *testing.B, config string, released string) *peer {
	src, err := os.ReadFile(config)
	if err != nil {
		b.Fatal(err)
	}
	addr, metrics := freeAddr(b), freeAddr(b)
	_, port, _ := net.SplitHostPort(metrics)
	cfg := strings.NewReplacer("0.0.0.0:4317", addr, "port: 8888", "port: "+port).Replace(string(src))
	path := filepath.Join(b.TempDir(), "collector.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), peerEnv+"="+path)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return &peer{cmd: cmd, addr: addr,
		done: func(spans int) (int, bool, error) {
			n, err := scrape("http://"+metrics+"/metrics", released)
			return n, n >= spans, err
		},
		stop: func(int) (int, error) {
			cmd.Process.Signal(syscall.SIGTERM)
			return 0, cmd.Wait()
		}}
}

// scrape sums the values of the metric name in a Prometheus text page.
func scrape(url, name string) (int, error) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	var sum float64
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, name)
		if !ok || rest == "" || rest[0] != '{' && rest[0] != ' ' {
			continue
		}
		f := strings.Fields(rest[strings.LastIndexByte(rest, '}')+1:])
		if len(f) > 0 {
			v, err := strconv.ParseFloat(f[0], 64)
			if err != nil {
				return 0, fmt.Errorf("%s: %v", line, err)
			}
			sum += v
		}
	}
	return int(sum), nil
}

// startMonitorPeer runs ivc monitor on the shop's spec with args, its
// records in a file: a record a session, one a order.
func startMonitorPeer(b *testing.B, args ...string) *peer {
	bin, err := ivcBinary()
	if err != nil {
		b.Fatal(err)
	}
	addr, out := freeAddr(b), filepath.Join(b.TempDir(), "verdicts.jsonl")
	var stderr bytes.Buffer
	cmd := exec.Command(bin, append([]string{"monitor", "--otlp-grpc", addr, "--otlp-http", "", "--output", out}, args...)...)
	cmd.Args = append(cmd.Args, "../e2e/testdata/shop.hsf", "../e2e/testdata/shop.hif")
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	records := func() (int, error) {
		data, err := os.ReadFile(out)
		if errors.Is(err, os.ErrNotExist) {
			err = nil
		}
		return bytes.Count(data, []byte{'\n'}), err
	}
	return &peer{cmd: cmd, addr: addr,
		done: func(spans int) (int, bool, error) {
			n, err := records()
			return n * spansPerOrder, n*spansPerOrder >= spans, err
		},
		stop: func(spans int) (int, error) {
			cmd.Process.Signal(syscall.SIGTERM)
			if err := cmd.Wait(); err != nil {
				return 0, fmt.Errorf("ivc monitor: %v\n%s", err, stderr.Bytes())
			}
			orders := spans / spansPerOrder
			m := summaryRE.FindStringSubmatch(stderr.String())
			if m == nil || m[1] != strconv.Itoa(orders) || m[2] != fmt.Sprintf("%d Pass", orders) ||
				m[4] != strconv.Itoa(spans) || m[5] != strconv.Itoa(spans) || m[6] != "0 ignored + 0 malformed + 0 late + 0 duplicates" {
				return 0, fmt.Errorf("ivc monitor's summary, for %d orders of %d spans:\n%s", orders, spans, stderr.Bytes())
			}
			if n, err := records(); err != nil || n != orders {
				return 0, fmt.Errorf("%d records written, want %d (%v)", n, orders, err)
			}
			evicted, _ := strconv.Atoi(m[3])
			return evicted, nil
		}}
}

// summaryRE reads ivc monitor's summary line: records, verdicts,
// evicted; received, judged, what was not judged.
var summaryRE = regexp.MustCompile(`ivc monitor: (\d+) records \(([^;]*); (\d+) evicted\); (\d+) events received = (\d+) judged \+ ([^;]*);`)

// cpuTime returns a process's CPU time (user and system) from /proc.
func cpuTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command's name (in parentheses): state is the
	// 3rd field of the line, utime and stime the 14th and 15th.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, data)
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	const userHZ = 100 // clock ticks per second of /proc, fixed by Linux's ABI
	return time.Duration(u+s) * time.Second / userHZ, nil
}

var hwmRE = regexp.MustCompile(`(?m)^VmHWM:\s+(\d+) kB`)

// peakRSS returns a process's peak resident set from /proc.
func peakRSS(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	m := hwmRE.FindSubmatch(data)
	if m == nil {
		return 0, fmt.Errorf("/proc/%d/status: no VmHWM", pid)
	}
	kb, err := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10, err
}

// send sends requests requests of loadBatch spans (distinct correct orders
// of the shop) to addr over OTLP/gRPC from senders goroutines, each on its
// own connection, answering saturation with a retry as OTLP exporters do.
// It returns the saturated answers.
func send(ctx context.Context, addr string, requests int) (int64, error) {
	var next, rejected atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, senders)
	for g := range senders {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return 0, err
		}
		defer conn.Close()
		client := ptraceotlp.NewGRPCClient(conn)
		req := testutil.ShopRequest(loadBatch / spansPerOrder)
		wg.Go(func() {
			for r := 0; next.Add(1) <= int64(requests); r++ {
				testutil.SetShopTraces(req, g, r)
				for {
					_, err := client.Export(ctx, req)
					if status.Code(err) == codes.ResourceExhausted {
						rejected.Add(1)
						time.Sleep(time.Millisecond)
						continue
					}
					if err != nil {
						errs[g] = err
						return
					}
					break
				}
			}
		})
	}
	wg.Wait()
	return rejected.Load(), errors.Join(errs...)
}

// waitReady waits until addr accepts connections.
func waitReady(p *peer) error {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", p.addr); err == nil {
			c.Close()
			return nil
		}
		if p.cmd.ProcessState != nil {
			return fmt.Errorf("%s exited", p.cmd.Path)
		}
	}
	return fmt.Errorf("%s: not listening on %s after 30 s", p.cmd.Path, p.addr)
}

// BenchmarkPeers sends the monitor's load (requests of 512 spans, 64
// orders of the shop, from 4 senders on their own connections; b.N
// requests) over OTLP/gRPC on loopback to four receivers, each a process
// of its own: the OpenTelemetry Collector built from its modules (the
// release the repository uses) as OTLP receiver → batch → nop exporter
// (bare ingestion) and as OTLP receiver → groupbytrace (500 ms) → nop
// (grouping, as the monitor groups), and ivc monitor (sessions idle after
// 500 ms, 32 MiB of sessions, records to a file) and ivc monitor with its
// defaults. For each it reports the spans per second of the receiver's
// own CPU time (user and system, from /proc, from the first request to
// the last span passed on: released by the Collector, judged and written
// by ivc), the ingestion rate on the wall clock (spans/s, while sending),
// the receiver's peak RSS and the spans it did not pass on (lost; ivc
// monitor fails the benchmark on any loss, wrong verdict or unwritten
// record; the Collector's count is reported), and the sessions ivc judged
// early to stay within its memory bound (evicted: each judged all the
// same, on a whole order).
//
//	go -C monitor/collector test -run '^$' -bench Peers -benchtime 4000x
func BenchmarkPeers(b *testing.B) {
	peers := []struct {
		name  string
		start func(b *testing.B) *peer
	}{
		{"collector-batch", func(b *testing.B) *peer {
			return startCollectorPeer(b, "testdata/peers-batch.yaml", "otelcol_receiver_accepted_spans")
		}},
		{"collector-groupbytrace", func(b *testing.B) *peer {
			return startCollectorPeer(b, "testdata/peers-groupbytrace.yaml", "otelcol_processor_groupbytrace_spans_released")
		}},
		{"monitor", func(b *testing.B) *peer {
			return startMonitorPeer(b, "--session-idle", "500ms", "--max-session-memory", "32MiB")
		}},
		{"monitor-defaults", func(b *testing.B) *peer { return startMonitorPeer(b) }},
	}
	for _, pe := range peers {
		b.Run(pe.name, func(b *testing.B) {
			requests := b.N
			spans := requests * loadBatch
			p := pe.start(b)
			defer p.cmd.Process.Kill()
			if err := waitReady(p); err != nil {
				b.Fatal(err)
			}
			pid := p.cmd.Process.Pid
			cpu0, err := cpuTime(pid)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			rejected, err := send(context.Background(), p.addr, requests)
			if err != nil {
				b.Fatal(err)
			}
			ingest := time.Since(start)
			// Wait until everything is passed on, or for a peer that
			// loses spans, until its count has not moved for 5 s.
			var passed int
			last, lastMove := -1, time.Now()
			for {
				n, ok, err := p.done(spans)
				if err != nil {
					b.Fatal(err)
				}
				passed = n
				if ok {
					break
				}
				if n != last {
					last, lastMove = n, time.Now()
				} else if time.Since(lastMove) > 5*time.Second {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			cpu1, err := cpuTime(pid)
			if err != nil {
				b.Fatal(err)
			}
			rss, err := peakRSS(pid)
			if err != nil {
				b.Fatal(err)
			}
			evicted, err := p.stop(spans)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(spans)/ingest.Seconds(), "spans/s")
			b.ReportMetric(float64(spans)/(cpu1-cpu0).Seconds(), "spans/CPU-s")
			b.ReportMetric(float64(rss>>20), "peak-RSS-MB")
			b.ReportMetric(float64(spans-min(passed, spans)), "lost")
			b.ReportMetric(float64(rejected), "rejected")
			b.ReportMetric(float64(evicted), "evicted")
		})
	}
}
