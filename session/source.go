package session

import (
	"errors"
	"fmt"
	"iter"
	"os"

	"github.com/ivc-project/ivc/internal/input"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/syntax"
)

// A Source reads the inputs of a run, logs and .htf multi-traces in any
// mix, into the sessions to judge, in order: what ivc analyze and ivc draw
// --session judge. A .htf file is one multi-trace; a log holds sessions,
// joined across every log of the run by a Joiner (Scope). With ScopeRun
// (the default) the sessions come once all the logs are read, in order of
// first appearance, a .htf file at its place among them; with ScopeFile,
// a log's sessions come once it is read. The inputs that cannot be read,
// and the malformed lines of the logs as they are read, come in their
// place too, as sessions whose Err is an *InputError.
//
//	src := &session.Source{Options: logs.Options{Sig: sig}}
//	for s := range src.Sessions(files) { ... }   // check.Checker.Run judges them
//	src.Counts                                    // what the inputs held
//
// Reading the logs happens as the sessions are asked for; reading a .htf
// file known as one by its name (or its format given, or detected by
// Recognize) waits for its session to be judged (Session.Read), so that a
// pool of workers reads them in parallel.
type Source struct {
	// Format is the format of every input (logs.Auto: each its own, by
	// its name and content).
	Format  logs.Format
	Options logs.Options
	Scope   Scope
	// Budget bounds the bytes of sessions a Joiner holds (0: no bound),
	// past which it spills to a temporary file in TmpDir ("": the
	// system's).
	Budget int64
	TmpDir string
	// Reuse builds each session of the logs in a storage of its own, taken
	// again for a later session once the session is released
	// (Meta.Release): its multi-trace and origins are then not to be read
	// after it. For a reader that releases each session when it is done
	// with it, as Checker.Run does after its outcome's emit: the sessions
	// are built in memory still in the cache.
	Reuse bool

	// Counts are what the inputs held, as the sessions are handed out.
	Counts Counts
	// Note, when set, receives what is worth a word and is no error: a log
	// named again (the same file, by os.SameFile: a path given twice, a
	// file also found in a directory given, a link), read once; a span
	// read again with another content (Meta.Conflict), before its session.
	Note func(error)

	// detected holds what was detected of the formats of files before the
	// sessions were asked for (a directory's files recognized by their
	// content, a file whose format was asked), so that a file's format is
	// decided once.
	detected map[string]logs.Format
	leases   *leases // with Reuse
}

// Recognize reports whether the file at path, found in a directory given,
// is an input (logs.Recognize), and keeps what recognition detected of its
// format.
func (src *Source) Recognize(path string) bool {
	f, ok := logs.Recognize(path, src.Format, src.Options)
	if ok && f != logs.Auto {
		src.remember(path, f)
	}
	return ok
}

// Detect returns the format of the input at path (standard input: Auto,
// known once read), detecting it by opening the file when neither the
// format given, nor its recognition, nor its name decides; the format is
// then not decided again when its sessions are read. The error is the
// opening's.
func (src *Source) Detect(path string) (logs.Format, error) {
	if path == input.Stdin {
		return logs.Auto, nil
	}
	in, err := src.open(path)
	if err != nil {
		return logs.Auto, err
	}
	in.Close()
	if src.Format == logs.Auto {
		src.remember(path, in.Format)
	}
	return in.Format, nil
}

func (src *Source) remember(path string, f logs.Format) {
	if src.detected == nil {
		src.detected = map[string]logs.Format{}
	}
	src.detected[path] = f
}

// formatOf returns what is known of the format of file before it is
// opened: the format given, the one detected so far, or the one its name
// decides (logs.DetectName); Auto when opening it detects it.
func (src *Source) formatOf(file string) logs.Format {
	if src.Format != logs.Auto {
		return src.Format
	}
	if f, ok := src.detected[file]; ok {
		return f
	}
	return logs.DetectName(file)
}

// open opens file in the format given, or in the one detected of it so
// far, which is then not decided again.
func (src *Source) open(file string) (*logs.Input, error) {
	if src.Format != logs.Auto {
		return logs.Open(file, src.Format, src.Options)
	}
	return logs.OpenDetected(file, src.formatOf(file), src.Options)
}

// Sessions returns the sessions of the inputs files, in order (see
// Source), counting them in Counts as they are handed out. It is called
// once.
func (src *Source) Sessions(files []string) iter.Seq[Session] {
	counts := &src.Counts
	fail := func(name string, err error, malformed bool) Session {
		if !malformed {
			counts.Unreadable++
		}
		return Session{Meta: Meta{File: name}, Err: &InputError{Err: err, Malformed: malformed}}
	}
	// A .htf file, or an error, after the logs of the run began: it waits
	// for the sessions that come before it.
	type later struct {
		before int // its place: the number of logs read before it
		s      Session
	}
	return func(yield func(Session) bool) {
		var (
			j       *Joiner
			pending []later
			stdin   bool
			failed  bool // stop: yield said so
		)
		defer func() {
			if j != nil {
				j.Close()
			}
		}()
		// put yields s, or keeps it for its place among the sessions.
		put := func(s Session) {
			if failed {
				return
			}
			if src.Scope == ScopeRun && j != nil && counts.Logs > 0 {
				pending = append(pending, later{before: counts.Logs, s: s})
				return
			}
			failed = !yield(s)
		}
		// flush yields the sessions of j, the pending ones at their place.
		flush := func() {
			if j == nil {
				return
			}
			for s, err := range j.Sessions() {
				if err != nil {
					failed = failed || !yield(fail("", err, false))
					break
				}
				for len(pending) > 0 && pending[0].before <= s.Input && !failed {
					failed = !yield(pending[0].s)
					pending = pending[1:]
				}
				if s.Conflict != nil && src.Note != nil {
					src.Note(s.Conflict)
				}
				if failed {
					break
				}
				counts.Add(&s)
				failed = !yield(s)
			}
			counts.undeclared(j.Undeclared())
			for _, p := range pending {
				if failed {
					break
				}
				failed = !yield(p.s)
			}
			pending = nil
			counts.Spilled = counts.Spilled || j.Spilled()
			j.Close()
			j = nil
		}
		var seen inputs
		for _, file := range files {
			if failed {
				return
			}
			counts.Files++
			if file == input.Stdin {
				if stdin {
					put(fail(file, errors.New("-: standard input given twice"), false))
					continue
				}
				stdin = true
			}
			if file != input.Stdin && src.formatOf(file) == logs.HTF {
				// Opened once, by the worker that reads it.
				counts.HTF++
				put(HTF(file, src.Options))
				continue
			}
			// A log named again would join each of its sessions with itself:
			// read once (a .htf file is judged again, as named).
			if first := seen.again(file); first != "" {
				counts.Files--
				counts.Repeated++
				if src.Note != nil {
					src.Note(fmt.Errorf("%s: the same file as %s, read once", syntax.FileName(file), syntax.FileName(first)))
				}
				continue
			}
			in, err := src.open(file)
			if err != nil {
				put(fail(file, err, false))
				continue
			}
			if in.Format == logs.HTF {
				// Standard input, or a file its content alone says is a
				// .htf file: read now, so that it is opened once and no
				// descriptor waits for its place among the sessions.
				counts.HTF++
				s := ReadHTF(in)
				in.Close()
				put(s)
				continue
			}
			if j == nil {
				if j, err = NewJoiner(src.Options, src.Budget, src.TmpDir); err != nil {
					in.Close()
					put(fail(file, err, false))
					continue
				}
				j.alone = src.Scope == ScopeFile || len(files) == 1
				if src.Reuse {
					if src.leases == nil {
						src.leases = new(leases)
					}
					j.leases = src.leases
				}
			}
			var bad []Session
			stats, err := j.Read(in, func(err error) { bad = append(bad, fail(file, err, true)) })
			in.Close()
			counts.Logs++
			counts.undeclared(in.Undeclared())
			counts.AddStats(stats)
			if err != nil {
				bad = append(bad, fail(file, err, false))
			}
			for _, s := range bad {
				if failed = failed || !yield(s); failed {
					return
				}
			}
			if src.Scope == ScopeFile {
				flush()
			}
		}
		flush()
	}
}

// inputs are the files of a run met so far, by size, to tell a file named
// again (os.SameFile): its spans would all be read twice.
type inputs struct {
	bySize map[int64][]input1
}

type input1 struct {
	name string
	fi   os.FileInfo
}

// again returns the name under which the file at path was met before
// ("" when it was not, or cannot be told: standard input, a file that
// cannot be read, which its opening reports).
func (in *inputs) again(path string) string {
	if path == input.Stdin {
		return ""
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	for _, prev := range in.bySize[fi.Size()] {
		if os.SameFile(prev.fi, fi) {
			return prev.name
		}
	}
	if in.bySize == nil {
		in.bySize = map[int64][]input1{}
	}
	in.bySize[fi.Size()] = append(in.bySize[fi.Size()], input1{path, fi})
	return ""
}
