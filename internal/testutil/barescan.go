package testutil

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"testing"
)

// The peer of the logs' rows: what any reader of a JSON Lines log does at
// least (check's BenchmarkLogs and BenchmarkJoin, cmd/ivc's
// BenchmarkCommand).

// BenchmarkBareScan scans the JSON Lines files at paths bare (BareScan),
// one after the other, and checks that they hold events events.
func BenchmarkBareScan(b *testing.B, paths []string, events int) {
	var cpu CPUClock
	for b.Loop() {
		cpu.Start()
		BareScanFiles(b, paths, events)
		cpu.Stop()
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	cpu.Report(b, events*b.N, "event")
}

// BareScanFiles scans the JSON Lines files at paths bare (BareScan), one
// after the other, and checks that they hold events events: one pass of
// BenchmarkBareScan, for a benchmark that alternates it with its own.
func BareScanFiles(b *testing.B, paths []string, events int) {
	n := 0
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		k, err := BareScan(bufio.NewReaderSize(f, 64<<10))
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		n += k
	}
	if n != events {
		b.Fatalf("%d events, want %d", n, events)
	}
}

// BareScan reads a JSON Lines log whose lines are flat objects without
// escapes, as package gen writes them, and pulls out each line's session,
// lifeline, kind and message as slices of the line, allocating nothing: no
// signature, no order, no sessions, no checks. It returns the number of
// lines that hold the four.
func BareScan(r *bufio.Reader) (int, error) {
	n, sum := 0, 0
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			var sess, life, kind, msg []byte
			for i := 0; ; {
				k := bytes.IndexByte(line[i:], '"')
				if k < 0 {
					break
				}
				k += i + 1
				e := bytes.IndexByte(line[k:], '"')
				if e < 0 {
					break
				}
				key := line[k : k+e]
				v := k + e + 2 // after the colon
				if v >= len(line) {
					break
				}
				var val []byte
				if line[v] == '"' {
					end := bytes.IndexByte(line[v+1:], '"')
					if end < 0 {
						break
					}
					val, i = line[v+1:v+1+end], v+end+2
				} else {
					end := bytes.IndexAny(line[v:], ",}")
					if end < 0 {
						break
					}
					val, i = line[v:v+end], v+end
				}
				switch string(key) {
				case "session":
					sess = val
				case "lifeline":
					life = val
				case "kind":
					kind = val
				case "message":
					msg = val
				}
			}
			if len(sess) > 0 && len(life) > 0 && len(kind) > 0 && len(msg) > 0 {
				n++
				sum += int(sess[0]) + int(life[0]) + int(kind[0]) + int(msg[0])
			}
		}
		if err == io.EOF {
			if sum < 0 { // keeps the fields read
				return 0, nil
			}
			return n, nil
		} else if err != nil {
			return n, err
		}
	}
}
