package logs

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/syntax"
)

// Options say how to read a log.
type Options struct {
	// Sig is the signature: the lifelines and messages of the protocol.
	Sig *interaction.Signature
	// Locations are the groups of lifelines that share a clock, one
	// component of each session's multi-trace each, in order; nil: one
	// location per lifeline of Sig. A lifeline in no group gets a location
	// of its own, after the others, in signature order.
	Locations interaction.Locations
	// Fields renames the roles of an event log's fields: role → field name
	// (--field role=NAME). The roles are session, action, lifeline, kind,
	// message, seq and time; each is its own field name by default.
	Fields map[string]string
	// LifelineAttr, when set, replaces service.name and
	// process.executable.name (OTLP: a resource attribute, then a span
	// attribute; Jaeger: a process tag, then a span tag) as the attribute
	// that names a span's lifeline. MessageAttr, when set, replaces the
	// naming rule's candidates (naming.go) by one attribute that names its
	// message (the span name still applies when the attribute is absent).
	LifelineAttr, MessageAttr string
	// Replies maps the message of a call to the message of its reply, by
	// their names in Sig (spec.Spec.Replies: the replies a diagram draws).
	// A call's spans then hold its reply too: a SERVER span's end is the
	// reply's emission by the server, its CLIENT span's end the reply's
	// reception by the client (see Reply).
	Replies map[string]string
	// Strict makes an event outside the signature a malformed-line error
	// instead of ignored.
	Strict bool
	// MaxBytes refuses an input larger than this, once decompressed
	// (0: DefaultMaxBytes).
	MaxBytes int64
	// MaxReports is how many malformed lines or records of a file are
	// reported (0: DefaultMaxReports); the others are counted in
	// Stats.Malformed, and one last report says how many there were.
	MaxReports int
	// MaxMemory is the memory reading may take, in bytes (0: no bound but
	// MaxLine). It bounds what reading holds at once: one line, JSON value
	// or CSV record at most MaxMemory/ValueShare bytes (and MaxLine), as
	// decoding takes many times the size of what it decodes; the spans of
	// a file held until it is read (to pair them) and the events of one
	// session at most MaxMemory/HeldShare bytes each. Past a limit, an
	// error names the file and line.
	MaxMemory int64
	// MaxLine, when set, is the longest line, JSON value or CSV record
	// reading accepts, in place of the default: MaxLine bytes, or
	// MaxMemory/ValueShare when that is less. Decoding a value takes up to
	// about 60 times its size.
	MaxLine int
}

// The shares of Options.MaxMemory that bound what reading holds. A JSON
// value decodes into up to about 60 times its size in the worst case
// measured (a Jaeger span of empty tags: {} becomes a 48-byte tag), so
// that a value takes at most about its share once decoded.
const (
	ValueShare = 64
	HeldShare  = 4
	MinHeld    = 2 << 20 // 64Ki events of a session
)

// Reply returns the reply of the call m, when Replies gives one that Sig
// declares.
func (opt *Options) Reply(m interaction.MessageID) (interaction.MessageID, bool) {
	if len(opt.Replies) == 0 || opt.Sig == nil || int(m) >= len(opt.Sig.Messages) {
		return 0, false
	}
	r, ok := opt.Replies[opt.Sig.Messages[m]]
	if !ok {
		return 0, false
	}
	return opt.Sig.Message(r)
}

// maxValue is the longest line, JSON value or CSV record reading accepts.
func (opt *Options) maxValue() int {
	if opt.MaxLine > 0 {
		return opt.MaxLine
	}
	if opt.MaxMemory > 0 {
		return int(min(int64(maxLine), max(opt.MaxMemory/ValueShare, 4<<10)))
	}
	return maxLine
}

// MaxHeld is the most bytes of spans a file holds until it is read, and of
// events one session holds (package session: 0, no bound): a share of
// MaxMemory, and at least MinHeld, so that a tiny budget (to make a
// session.Joiner spill) still reads ordinary logs.
func (opt *Options) MaxHeld() int64 {
	if opt.MaxMemory <= 0 {
		return 0
	}
	return max(opt.MaxMemory/HeldShare, MinHeld)
}

// DefaultMaxBytes is the largest input Open accepts when Options.MaxBytes
// is 0.
const DefaultMaxBytes = 4 << 30

// DefaultMaxReports is how many malformed lines of a file are reported
// when Options.MaxReports is 0.
const DefaultMaxReports = 100

var utf8BOM = []byte("\ufeff")

// headSize is how much of a file Open shows Detect.
const headSize = 64 << 10

// fileError names the file in an error that does not already: an error
// of reading the file itself by its name only, one that wraps another
// file's (a spill's) whole.
func fileError(name string, err error) error {
	if pe, ok := err.(*os.PathError); ok {
		err = pe.Err
	}
	if strings.HasPrefix(err.Error(), syntax.FileName(name)+":") {
		return err
	}
	return fmt.Errorf("%s: %w", syntax.FileName(name), err)
}

func isTSV(name string) bool {
	return strings.EqualFold(filepath.Ext(strings.TrimSuffix(strings.ToLower(name), ".gz")), ".tsv")
}

func maxBytes(opt Options) int64 {
	if opt.MaxBytes > 0 {
		return opt.MaxBytes
	}
	return DefaultMaxBytes
}

func tooBig(name string, opt Options) error {
	return fmt.Errorf("%s: larger than %d bytes, the most a log may hold (raise the limit to read it)", syntax.FileName(name), maxBytes(opt))
}

// limitReader fails with err once more than left bytes are read.
type limitReader struct {
	r    io.Reader
	left int64
	err  error
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.err
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return 0, l.err
	}
	return n, err
}
