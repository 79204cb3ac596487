package interaction

// ActionTable maps single actions to small integers (letters, ids) in a
// dense table by lifeline, then by message and kind: a look-up is two
// loads, for the per-event paths of the engines, where a map would hash
// every event. It takes one entry per message and kind up to the largest
// one set on each lifeline, so it suits the actions of one signature.
// The zero value is empty.
type ActionTable[V ~int32 | ~uint32] struct {
	t [][]V // value+1, 0 for an action not set
}

// low masks an action's message, ghost bit and kind (its lifeline is above).
const low = 1<<16 - 1

// Get returns the value set for a, and whether there is one.
func (m *ActionTable[V]) Get(a Action) (V, bool) {
	l, r := int(a.Lifeline()), int(a&low)
	if l < len(m.t) && r < len(m.t[l]) {
		if v := m.t[l][r]; v != 0 {
			return v - 1, true
		}
	}
	return 0, false
}

// Set sets the value of a to v.
func (m *ActionTable[V]) Set(a Action, v V) {
	l, r := int(a.Lifeline()), int(a&low)
	if l >= len(m.t) {
		m.t = append(m.t, make([][]V, l+1-len(m.t))...)
	}
	if r >= len(m.t[l]) {
		m.t[l] = append(m.t[l], make([]V, r+1-len(m.t[l]))...)
	}
	m.t[l][r] = v + 1
}
