package testutil

import (
	"testing"
	"time"
)

// CPUClock measures the CPU time of a benchmark's loop, which the load of
// a shared machine inflates much less than the time elapsed: call Start
// and Stop where the benchmark starts and stops its timer, then Report.
type CPUClock struct {
	total, start time.Duration
}

// Start starts (or restarts) the clock.
func (c *CPUClock) Start() { c.start = CPUTime() }

// Stop stops the clock.
func (c *CPUClock) Stop() { c.total += CPUTime() - c.start }

// Report reports the CPU time per unit, of n units in all, as the metric
// "cpu-ns/"+unit.
func (c *CPUClock) Report(b *testing.B, n int, unit string) { c.ReportAs(b, n, "cpu-ns/"+unit) }

// ReportAs reports the CPU time per unit, of n units in all, as the
// metric named metric.
func (c *CPUClock) ReportAs(b *testing.B, n int, metric string) {
	if n > 0 && c.total > 0 {
		b.ReportMetric(float64(c.total.Nanoseconds())/float64(n), metric)
	}
}
