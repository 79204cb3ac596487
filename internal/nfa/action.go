package nfa

// An Action is an event l!m or l?m, by the indices of its lifeline and its
// message in a signature: what the symbols of an automaton compiled from an
// interaction, and the letters of its locations, are made of. A letter
// given with its actions (Alphabets.AddLetter) keeps them typed, so that
// the code working on the automaton (package internal/compile) never reads a name such
// as "a!m" or "{a!m,b?m}" back.
//
// It is interaction.Action's concept, in nfa's own type: nfa imports
// nothing of ivc but its engine (a raw NFA of a .timbuk file has no
// interaction).
// internal/synth maps the one onto the other, in one place (nfaActions).
// The engine's Action (Letter here) is another thing: a letter's number.
type Action struct {
	Lifeline, Message int
	Receive           bool // l?m; l!m when false
}
