package logs

// nameTable finds a name among a fixed set (the fields of the roles, the
// lifelines and messages of a signature) by its bytes, as a reader meets
// it: in a table of slots indexed by a hash of its length and its first,
// middle and last bytes, which holds the index of the one name of that
// hash, so that a name costs one comparison, and a word that is none of
// them mostly none (bytes or a string alike). The names of a slot where
// several hash are found by a map.
type nameTable struct {
	names []string
	slots []int32 // the index of the name of each slot, or noName, or severalNames
	index map[string]int32
}

const (
	noName       = -1
	severalNames = -2
)

func newNameTable(names []string) *nameTable {
	n := 64
	for n < 4*len(names) {
		n *= 2
	}
	t := &nameTable{names: names, slots: make([]int32, n), index: make(map[string]int32, len(names))}
	for i := range t.slots {
		t.slots[i] = noName
	}
	for i, name := range names {
		t.index[name] = int32(i)
		switch h := t.slot([]byte(name)); t.slots[h] {
		case noName:
			t.slots[h] = int32(i)
		default:
			t.slots[h] = severalNames
		}
	}
	return t
}

// slot is where k hashes in t.
func (t *nameTable) slot(k []byte) int { return slotOf(t, k) }

// slotOf is where k, bytes or a string, hashes in t.
func slotOf[K ~string | ~[]byte](t *nameTable, k K) int {
	if len(k) == 0 {
		return 0
	}
	return (len(k)*5 + int(k[0]) + int(k[len(k)/2])*7 + int(k[len(k)-1])*3) & (len(t.slots) - 1)
}

// find returns the index of the name k; 0 and false if it is none.
func (t *nameTable) find(k []byte) (int32, bool) {
	switch i := t.slots[t.slot(k)]; i {
	case noName:
		return 0, false
	case severalNames:
		i, ok := t.index[string(k)] // no allocation for the look-up
		return i, ok
	default:
		if t.names[i] != string(k) {
			return 0, false
		}
		return i, true
	}
}

// findString is find for a string: the naming of spans tries several
// names of each span.
func (t *nameTable) findString(k string) (int32, bool) {
	switch i := t.slots[slotOf(t, k)]; i {
	case noName:
		return 0, false
	case severalNames:
		i, ok := t.index[k]
		return i, ok
	default:
		if t.names[i] != k {
			return 0, false
		}
		return i, true
	}
}
