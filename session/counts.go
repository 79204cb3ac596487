package session

import "github.com/ivc-project/ivc/logs"

// Counts count what the inputs of a run held: the inputs, what of them
// could not be read, and the sessions handed out. A Source counts them for
// ivc analyze, the grouping of a pipeline's workers (Groups) for theirs.
type Counts struct {
	// Files counts the inputs, readable or not; Logs the logs read and HTF
	// the .htf multi-traces among them; Unreadable the inputs that could
	// not be read at all (an *InputError, not Malformed); Repeated the
	// inputs named again (the same file as one before: not read again,
	// not in Files).
	Files, Logs, HTF, Unreadable, Repeated int
	// Malformed counts the lines and records that could not be read (each
	// reported), Unkinded the spans without a protocol kind (INTERNAL or
	// none: not events).
	Malformed, Unkinded int
	// Spilled reports that a Joiner spilled sessions to disk past its
	// budget (the sessions are the same).
	Spilled bool
	// Undeclared are the names outside the signature that the events carry
	// most (at most MaxUndeclaredShown), with their events.
	Undeclared []logs.Undeclared
	// Sessions counts the sessions of logs handed out (not the .htf
	// multi-traces), Joined those whose events come from several inputs;
	// Events and Ignored their events in the signature and outside it, and
	// EventsNotJudged the events of those that cannot be judged: an error
	// (Session.Err), or events lost (Meta.Incomplete: Inconc without a
	// search).
	Sessions, Joined int
	Events, Ignored  int
	EventsNotJudged  int
	// Duplicates counts the events read again (Meta.Duplicates), not in
	// Events nor Ignored; Conflicts those of them whose content differed
	// (Meta.Conflicts), each session's first reported.
	Duplicates, Conflicts int
}

// MaxUndeclaredShown is how many of the names outside the signature
// Counts.Undeclared keeps: those a summary shows.
const MaxUndeclaredShown = 5

// Add counts a session of logs handed out.
func (c *Counts) Add(s *Session) {
	c.Sessions++
	// Counted here, not from the logs' Stats: a span's message, and so
	// whether it is judged, may come from its partner in another file.
	c.Events += s.Events
	c.Ignored += s.Ignored
	c.Duplicates += s.Duplicates
	c.Conflicts += s.Conflicts
	if s.Joined() {
		c.Joined++
	}
	if s.Err != nil || s.Incomplete() != "" {
		// Not judged, or Inconc without a search: it cannot be ordered,
		// or lost events that could not be read.
		c.EventsNotJudged += s.Events
	}
}

// Merge adds the counts of d to c.
func (c *Counts) Merge(d Counts) {
	c.Files += d.Files
	c.Logs += d.Logs
	c.HTF += d.HTF
	c.Unreadable += d.Unreadable
	c.Repeated += d.Repeated
	c.Malformed += d.Malformed
	c.Unkinded += d.Unkinded
	c.Spilled = c.Spilled || d.Spilled
	c.undeclared(d.Undeclared)
	c.Sessions += d.Sessions
	c.Joined += d.Joined
	c.Events += d.Events
	c.Ignored += d.Ignored
	c.EventsNotJudged += d.EventsNotJudged
	c.Duplicates += d.Duplicates
	c.Conflicts += d.Conflicts
}

// AddStats counts what reading a log found besides its sessions.
func (c *Counts) AddStats(st logs.Stats) {
	c.Malformed += st.Malformed
	c.Unkinded += st.Unkinded
}

// undeclared merges u into the names kept.
func (c *Counts) undeclared(u []logs.Undeclared) {
	if len(u) > 0 {
		c.Undeclared = logs.MostUndeclared(MaxUndeclaredShown, c.Undeclared, u)
	}
}
