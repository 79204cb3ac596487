package interaction

import (
	"fmt"
	"slices"

	"github.com/ivc-project/ivc/internal/scan"
)

// LifelineID is the index of a lifeline in its Signature.
type LifelineID uint16

// MessageID is the index of a message in its Signature.
type MessageID uint16

// Limits of a signature, imposed by the packed Action representation.
const (
	MaxLifelines = 1 << 16
	MaxMessages  = 1 << 14 // message ids have a 15th bit that marks ghosts (see Ghost)
)

// Signature declares the lifelines, messages and gates an interaction may
// use (a .hsf file). Lifelines and messages are numbered in declaration order.
//
// A lifeline or a message may have an alias, a short name that a .hif or a
// .htf may use in its place (@lifeline{ gateway = "api-gateway" }): its name
// is the text that logs hold ("api-gateway"), and Lifeline and Message find
// it by either.
type Signature struct {
	Lifelines []string
	Messages  []string
	Gates     []string
	// LifelineAliases and MessageAliases hold the alias of each lifeline
	// and message, at its id ("" when it has none); nil when none has one.
	LifelineAliases []string
	MessageAliases  []string

	lifeline map[string]LifelineID
	message  map[string]MessageID
	gate     map[string]int
}

// NewSignature builds a signature from names, rejecting duplicates.
func NewSignature(lifelines, messages, gates []string) (*Signature, error) {
	s := &Signature{}
	for _, l := range lifelines {
		if err := s.AddLifeline(l); err != nil {
			return nil, err
		}
	}
	for _, m := range messages {
		if err := s.AddMessage(m); err != nil {
			return nil, err
		}
	}
	for _, g := range gates {
		if err := s.AddGate(g); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// AddLifeline declares a lifeline.
func (s *Signature) AddLifeline(name string) error { return s.AddLifelineAlias(name, "") }

// AddLifelineAlias declares a lifeline called name with an alias ("" for
// none). Names and aliases of lifelines and gates are all distinct.
func (s *Signature) AddLifelineAlias(name, alias string) error {
	if s.lifeline == nil {
		s.lifeline = map[string]LifelineID{}
	}
	for _, n := range []string{name, alias} {
		if n == "" {
			continue
		}
		if _, dup := s.lifeline[n]; dup {
			return fmt.Errorf("lifeline %q is declared twice", n)
		}
		if _, dup := s.gate[n]; dup {
			return fmt.Errorf("%q is declared both as a gate and as a lifeline", n)
		}
	}
	if alias == name {
		alias = ""
	}
	if len(s.Lifelines) >= MaxLifelines {
		return fmt.Errorf("too many lifelines (at most %d)", MaxLifelines)
	}
	id := LifelineID(len(s.Lifelines))
	s.lifeline[name] = id
	s.Lifelines = append(s.Lifelines, name)
	s.LifelineAliases = addAlias(s.LifelineAliases, len(s.Lifelines), alias)
	if alias != "" {
		s.lifeline[alias] = id
	}
	return nil
}

// addAlias records the alias of the n-th name in aliases, which stays nil
// while no name has one.
func addAlias(aliases []string, n int, alias string) []string {
	if aliases == nil && alias == "" {
		return nil
	}
	aliases = append(aliases, make([]string, n-1-len(aliases))...)
	return append(aliases, alias)
}

// AddMessage declares a message.
func (s *Signature) AddMessage(name string) error { return s.AddMessageAlias(name, "") }

// AddMessageAlias declares a message called name with an alias ("" for
// none). Names and aliases of messages are all distinct.
func (s *Signature) AddMessageAlias(name, alias string) error {
	if s.message == nil {
		s.message = map[string]MessageID{}
	}
	for _, n := range []string{name, alias} {
		if _, dup := s.message[n]; dup && n != "" {
			return fmt.Errorf("message %q is declared twice", n)
		}
	}
	if alias == name {
		alias = ""
	}
	if len(s.Messages) >= MaxMessages {
		return fmt.Errorf("too many messages (at most %d)", MaxMessages)
	}
	id := MessageID(len(s.Messages))
	s.message[name] = id
	s.Messages = append(s.Messages, name)
	s.MessageAliases = addAlias(s.MessageAliases, len(s.Messages), alias)
	if alias != "" {
		s.message[alias] = id
	}
	return nil
}

// LifelineAlias returns the alias of a lifeline, or its name when it has
// none: the short name, for drawings and .hif files.
func (s *Signature) LifelineAlias(l LifelineID) string {
	if int(l) < len(s.LifelineAliases) && s.LifelineAliases[l] != "" {
		return s.LifelineAliases[l]
	}
	return s.Lifelines[l]
}

// MessageAlias returns the alias of a message, or its name when it has
// none.
func (s *Signature) MessageAlias(m MessageID) string {
	if int(m) < len(s.MessageAliases) && s.MessageAliases[m] != "" {
		return s.MessageAliases[m]
	}
	return s.Messages[m]
}

// AddGate declares a gate.
func (s *Signature) AddGate(name string) error {
	if s.gate == nil {
		s.gate = map[string]int{}
	}
	if _, dup := s.gate[name]; dup {
		return fmt.Errorf("gate %q is declared twice", name)
	}
	if _, dup := s.lifeline[name]; dup {
		return fmt.Errorf("%q is declared both as a lifeline and as a gate", name)
	}
	s.gate[name] = len(s.Gates)
	s.Gates = append(s.Gates, name)
	return nil
}

// Lifeline returns the id of the lifeline called name, or whose alias is
// name.
func (s *Signature) Lifeline(name string) (LifelineID, bool) {
	id, ok := s.lifeline[name]
	return id, ok
}

// Message returns the id of the message called name, or whose alias is
// name.
func (s *Signature) Message(name string) (MessageID, bool) {
	id, ok := s.message[name]
	return id, ok
}

// IsGate reports whether name is a declared gate.
func (s *Signature) IsGate(name string) bool {
	_, ok := s.gate[name]
	return ok
}

// NumLifelines returns the number of lifelines.
func (s *Signature) NumLifelines() int { return len(s.Lifelines) }

// AllLifelines returns the set of every lifeline of s.
func (s *Signature) AllLifelines() Lifelines {
	n := len(s.Lifelines)
	b := make([]byte, (n+7)/8)
	for i := range b {
		b[i] = 0xff
	}
	if r := n % 8; r != 0 {
		b[len(b)-1] = 1<<r - 1
	}
	return trimmed(b)
}

// ParseAction reads "l!m" or "l?m" with names declared in s (bare or
// quoted, as in "api-gateway"!"GET /x").
func (s *Signature) ParseAction(text string) (Action, error) {
	sc := scan.New("", []byte(text))
	a, err := parseActionSyntax(sc)
	if err != nil || sc.Next().Kind != scan.EOF || sc.Err() != nil {
		return 0, fmt.Errorf("action %q: expected l!m or l?m", text)
	}
	return s.action(text, a)
}

// ParseMultiAction reads a multi-action as MultiAction.Format writes it:
// "l!m", or "{a!m,b?m}".
func (s *Signature) ParseMultiAction(text string) (MultiAction, error) {
	sc := scan.New("", []byte(text))
	if !sc.Peek().Is("{") {
		a, err := s.ParseAction(text)
		if err != nil {
			return nil, err
		}
		return MultiAction{a}, nil
	}
	sc.Next()
	var acts []Action
	for {
		as, err := parseActionSyntax(sc)
		if err != nil {
			return nil, fmt.Errorf("multi-action %q: expected {a!m,b?m}", text)
		}
		a, err := s.action(text, as)
		if err != nil {
			return nil, err
		}
		acts = append(acts, a)
		if t := sc.Next(); t.Is("}") {
			break
		} else if !t.Is(",") {
			return nil, fmt.Errorf("multi-action %q: expected {a!m,b?m}", text)
		}
	}
	if sc.Next().Kind != scan.EOF || sc.Err() != nil {
		return nil, fmt.Errorf("multi-action %q: expected {a!m,b?m}", text)
	}
	return NewMultiAction(acts...), nil
}

// action resolves the names of a, read from text.
func (s *Signature) action(text string, a ActionSyntax) (Action, error) {
	l, ok := s.Lifeline(a.Lifeline.Text)
	if !ok {
		return 0, fmt.Errorf("action %q: undeclared lifeline %q", text, a.Lifeline.Text)
	}
	m, ok := s.Message(a.Msg.Text)
	if !ok {
		return 0, fmt.Errorf("action %q: undeclared message %q", text, a.Msg.Text)
	}
	return MakeAction(l, a.Kind, m), nil
}

// Equal reports whether two signatures declare the same names in the same order.
func (s *Signature) Equal(t *Signature) bool {
	return slices.Equal(s.Lifelines, t.Lifelines) && slices.Equal(s.Messages, t.Messages) &&
		slices.Equal(s.Gates, t.Gates) && slices.Equal(s.LifelineAliases, t.LifelineAliases) &&
		slices.Equal(s.MessageAliases, t.MessageAliases)
}
