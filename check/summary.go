package check

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/verdict"
)

// Summary is the summary of a run: what its inputs held (Counts, counted
// by their reader: a session.Source, or the grouping of a pipeline's
// workers), and what was judged of them (counted by Run, or by Add for each
// outcome of Judge). Summaries of parts of a run add up (Merge). Each
// driver prints it its way: ivc analyze as text on stderr, ivc-beam as
// PREFIX-summary.json, ivc monitor as metrics.
type Summary struct {
	session.Counts
	// MultiTraces counts the sessions and .htf multi-traces, judged or not:
	// Verdicts counts the verdicts of those judged (by verdict), Reasons
	// the reasons given (verdict.Result.Reason), and Unjudged those that
	// could not be judged (an error).
	MultiTraces int
	Verdicts    [verdict.Inconc + 1]int
	Reasons     [verdict.Inconc + 1]map[verdict.Reason]int
	Unjudged    int
	// EventsJudged counts the events of the multi-traces judged (a session
	// judged Inconc for the events it lost included), EventsUnjudged those
	// of the sessions that could not be; JoinedJudged the sessions judged
	// whose events come from several inputs.
	EventsJudged, EventsUnjudged, JoinedJudged int
	// Setup is the one-time work of the batch (Outcome.Setup, summed).
	Setup time.Duration
	// Patterns are the failure patterns of the Fails judged, by key (at
	// most MaxPatterns), OtherPatterns the Fails of the patterns past them.
	Patterns      map[string]Pattern
	OtherPatterns int
}

// Judged returns the number of multi-traces judged: the verdicts given.
func (s *Summary) Judged() int {
	n := 0
	for _, c := range s.Verdicts {
		n += c
	}
	return n
}

// Add counts the outcome o. An input that could not be read (a
// *session.InputError) is counted by its reader, not here.
func (s *Summary) Add(o *Outcome) {
	s.Setup += o.Setup
	if o.Err != nil {
		if errors.As(o.Err, new(*session.InputError)) {
			return
		}
		s.MultiTraces++
		s.Unjudged++
		s.EventsUnjudged += o.Events
		return
	}
	s.MultiTraces++
	r := o.Result
	s.Verdicts[r.Verdict]++
	if r.Reason != verdict.NoReason {
		if s.Reasons[r.Verdict] == nil {
			s.Reasons[r.Verdict] = map[verdict.Reason]int{}
		}
		s.Reasons[r.Verdict][r.Reason]++
	}
	n := o.Events
	if o.HTF && o.MT != nil {
		n = o.MT.Len()
	}
	s.EventsJudged += n
	if o.Joined() {
		s.JoinedJudged++
	}
	if p, ok := o.Pattern(); ok {
		s.addPattern(p, Example{File: o.File, Session: o.ID}, o.At)
	}
}

// Merge adds the summary t to s.
func (s *Summary) Merge(t Summary) {
	s.Counts.Merge(t.Counts)
	s.MultiTraces += t.MultiTraces
	for v, n := range t.Verdicts {
		s.Verdicts[v] += n
	}
	for v, rs := range t.Reasons {
		if len(rs) > 0 && s.Reasons[v] == nil {
			s.Reasons[v] = map[verdict.Reason]int{}
		}
		for r, n := range rs {
			s.Reasons[v][r] += n
		}
	}
	s.Unjudged += t.Unjudged
	s.EventsJudged += t.EventsJudged
	s.EventsUnjudged += t.EventsUnjudged
	s.JoinedJudged += t.JoinedJudged
	s.Setup += t.Setup
	s.OtherPatterns += t.OtherPatterns
	// In key order, so that which patterns a full summary takes does not
	// depend on a map's order.
	keys := slices.Sorted(maps.Keys(t.Patterns))
	for _, k := range keys {
		s.mergePattern(t.Patterns[k])
	}
}

// NothingJudged returns the error of a run that judged no event, and
// reported no input it could not read (which would say why): every event
// of its logs was outside the signature, or the logs held none (an empty
// log, spans without a kind, a format that does not fit). A Pass of
// nothing is no answer: ivc analyze exits with status 2.
func (s *Summary) NothingJudged() error {
	if s.Unreadable+s.Unjudged > 0 || s.HTF > 0 || s.Events > 0 {
		return nil
	}
	var held []string
	if s.Ignored > 0 {
		held = append(held, plural(s.Ignored, "event")+" outside the signature")
	}
	if s.Unkinded > 0 {
		held = append(held, plural(s.Unkinded, "span")+" without a protocol kind (INTERNAL or none)")
	}
	if s.Malformed > 0 {
		held = append(held, plural(s.Malformed, "malformed line"))
	}
	what := "no event at all"
	if len(held) > 0 {
		what = "only " + strings.Join(held, ", ")
	}
	return fmt.Errorf("nothing judged: the logs hold %s (check the signature's names, --lifeline-attr, --message-attr, --field and --log-format)", what)
}

// plural returns "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// SummaryJSON is the JSON form of a summary: ivc-beam's PREFIX-summary.json
// and ivc analyze --summary's file.
type SummaryJSON struct {
	Files int `json:"files"` // files read
	// UnreadableFiles could not be read at all (see the errors).
	UnreadableFiles int `json:"unreadable_files"`
	// MultiTraces counts the sessions of the logs and the .htf files: each
	// judged (Verdicts) or not (Unjudged: see the errors).
	MultiTraces int            `json:"multi_traces"`
	Verdicts    map[string]int `json:"verdicts"`
	// Reasons counts, by verdict, the reasons given (Record's reason
	// without its details: LocalError, InterError, NodeLimit, ...).
	Reasons  map[string]map[string]int `json:"reasons,omitempty"`
	Unjudged int                       `json:"unjudged"`
	// EventsJudged are the events of the multi-traces judged,
	// EventsUnjudged those of the sessions that could not be, and
	// EventsIgnored those outside the signature (counted, not judged).
	EventsJudged   int `json:"events_judged"`
	EventsUnjudged int `json:"events_unjudged"`
	EventsIgnored  int `json:"events_ignored"`
	BadLines       int `json:"bad_lines"` // malformed lines and records
	// SpansUnkinded counts the spans without a protocol kind (INTERNAL or
	// none): not events, but not nothing either.
	SpansUnkinded int `json:"spans_unkinded,omitempty"`
	// JoinedSessions counts the sessions judged whose events come from
	// several files.
	JoinedSessions int `json:"joined_sessions"`
	// DuplicateEvents counts the events read again and dropped (a span
	// whose id its session had: the same trace in two files), and
	// ConflictingEvents those of them whose content differed (the first of
	// each session is reported).
	DuplicateEvents   int `json:"duplicate_events,omitempty"`
	ConflictingEvents int `json:"conflicting_events,omitempty"`
	// Patterns are the failure patterns, the most frequent first, each
	// with its share of the Fails; OtherPatterns counts the Fails of the
	// patterns past MaxPatterns.
	Patterns      []PatternJSON `json:"patterns,omitempty"`
	OtherPatterns int           `json:"other_patterns,omitempty"`
}

// PatternJSON is a failure pattern in a SummaryJSON: the pattern, and its
// share of the Fails (from 0 to 1).
type PatternJSON struct {
	Pattern
	Share float64 `json:"share"`
}

// JSON returns the JSON form of s.
func (s *Summary) JSON() SummaryJSON {
	f := SummaryJSON{Files: s.Files, UnreadableFiles: s.Unreadable, MultiTraces: s.MultiTraces, Verdicts: map[string]int{},
		Unjudged: s.Unjudged, EventsJudged: s.EventsJudged, EventsUnjudged: s.EventsUnjudged, EventsIgnored: s.Ignored,
		BadLines: s.Malformed, SpansUnkinded: s.Unkinded, JoinedSessions: s.JoinedJudged, OtherPatterns: s.OtherPatterns,
		DuplicateEvents: s.Duplicates, ConflictingEvents: s.Conflicts}
	for v, n := range s.Verdicts {
		if n > 0 {
			f.Verdicts[verdict.Verdict(v).String()] = n
		}
	}
	for v, rs := range s.Reasons {
		for r, n := range rs {
			if f.Reasons == nil {
				f.Reasons = map[string]map[string]int{}
			}
			name := verdict.Verdict(v).String()
			if f.Reasons[name] == nil {
				f.Reasons[name] = map[string]int{}
			}
			f.Reasons[name][r.String()] = n
		}
	}
	fails := s.Verdicts[verdict.Fail]
	for _, p := range s.TopPatterns(-1) {
		share := 0.0
		if fails > 0 {
			share = math.Round(1e4*float64(p.Count)/float64(fails)) / 1e4
		}
		f.Patterns = append(f.Patterns, PatternJSON{p, share})
	}
	return f
}
