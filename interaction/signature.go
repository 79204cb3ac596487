package interaction

import (
	"fmt"
	"slices"
	"strings"
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
type Signature struct {
	Lifelines []string
	Messages  []string
	Gates     []string

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
func (s *Signature) AddLifeline(name string) error {
	if s.lifeline == nil {
		s.lifeline = map[string]LifelineID{}
	}
	if _, dup := s.lifeline[name]; dup {
		return fmt.Errorf("lifeline %q is declared twice", name)
	}
	if _, dup := s.gate[name]; dup {
		return fmt.Errorf("%q is declared both as a gate and as a lifeline", name)
	}
	if len(s.Lifelines) >= MaxLifelines {
		return fmt.Errorf("too many lifelines (at most %d)", MaxLifelines)
	}
	s.lifeline[name] = LifelineID(len(s.Lifelines))
	s.Lifelines = append(s.Lifelines, name)
	return nil
}

// AddMessage declares a message.
func (s *Signature) AddMessage(name string) error {
	if s.message == nil {
		s.message = map[string]MessageID{}
	}
	if _, dup := s.message[name]; dup {
		return fmt.Errorf("message %q is declared twice", name)
	}
	if len(s.Messages) >= MaxMessages {
		return fmt.Errorf("too many messages (at most %d)", MaxMessages)
	}
	s.message[name] = MessageID(len(s.Messages))
	s.Messages = append(s.Messages, name)
	return nil
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

// Lifeline returns the id of the lifeline called name.
func (s *Signature) Lifeline(name string) (LifelineID, bool) {
	id, ok := s.lifeline[name]
	return id, ok
}

// Message returns the id of the message called name.
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

// ParseAction reads "l!m" or "l?m" with names declared in s.
func (s *Signature) ParseAction(text string) (Action, error) {
	i := strings.IndexAny(text, "!?")
	if i < 0 {
		return 0, fmt.Errorf("action %q: expected l!m or l?m", text)
	}
	l, ok := s.Lifeline(text[:i])
	if !ok {
		return 0, fmt.Errorf("action %q: undeclared lifeline %q", text, text[:i])
	}
	m, ok := s.Message(text[i+1:])
	if !ok {
		return 0, fmt.Errorf("action %q: undeclared message %q", text, text[i+1:])
	}
	k := Emission
	if text[i] == '?' {
		k = Reception
	}
	return MakeAction(l, k, m), nil
}

// Equal reports whether two signatures declare the same names in the same order.
func (s *Signature) Equal(t *Signature) bool {
	return slices.Equal(s.Lifelines, t.Lifelines) && slices.Equal(s.Messages, t.Messages) &&
		slices.Equal(s.Gates, t.Gates)
}
