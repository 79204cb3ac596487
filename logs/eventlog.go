package logs

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ivc-project/ivc/interaction"
)

// role is what a field of an event log gives.
type role uint8

const (
	roleSession role = iota
	roleAction
	roleLifeline
	roleKind
	roleMessage
	roleSeq
	roleTime
	numRoles
)

var roleNames = [numRoles]string{"session", "action", "lifeline", "kind", "message", "seq", "time"}

// fieldNames returns the field name of each role: the role's own name,
// unless Options.Fields renames it.
func fieldNames(fields map[string]string) ([numRoles]string, error) {
	names := roleNames
	for r, name := range fields {
		i := indexOf(roleNames[:], r)
		if i < 0 {
			return names, fmt.Errorf("unknown role %q in a field renaming (expected %s)", r, strings.Join(roleNames[:], ", "))
		}
		if name == "" {
			return names, fmt.Errorf("role %s: empty field name", r)
		}
		names[i] = name
	}
	for i := range names {
		for j := range i {
			if names[i] == names[j] {
				return names, fmt.Errorf("field %q is given two roles, %s and %s", names[i], roleNames[j], roleNames[i])
			}
		}
	}
	return names, nil
}

func indexOf(names []string, s string) int {
	for i, n := range names {
		if n == s {
			return i
		}
	}
	return -1
}

// valueType is the JSON type of a field's value (CSV: text, or absent).
type valueType uint8

const (
	absent valueType = iota // no field, null, or an empty string
	text
	number
	other // true, false, an object or an array
)

// value is a field's value as read: the text of a string (unescaped) or
// of a number.
type value struct {
	typ  valueType
	text []byte
}

// event is the fields of one line of an event log, by role.
type event [numRoles]value

// badField is a malformed event: the role whose field is wrong, and why;
// undeclared when it is a name outside the signature (Options.Strict).
type badField struct {
	role       role
	msg        string
	undeclared bool
}

// bad reports the malformed event ev, read at line:col: an event of its
// session, which is then incomplete, unless the session id itself is wrong
// or the event is only outside the signature (it would not have been
// judged).
func (b *builder) bad(ev *event, bf *badField, line, col int) {
	if bf.role == roleSession || bf.undeclared {
		b.malformed(line, col, "%s", bf.msg)
		return
	}
	b.dropped(ev[roleSession].text, line, col, "%s", bf.msg)
}

// interpret turns the fields of one line into an event of the builder: in
// its session, ignored (outside the signature), or a malformed field
// returned (the caller reports it with the field's column).
func (b *builder) interpret(ev *event, names *[numRoles]string, line int) (*badField, error) {
	sess := ev[roleSession]
	if sess.typ == other {
		return &badField{role: roleSession, msg: fmt.Sprintf("field %q (session): expected a string or a number", names[roleSession])}, nil
	}
	if !ascii(sess.text) && !utf8.Valid(sess.text) {
		// Printed, two such ids could not be told apart.
		return &badField{role: roleSession, msg: fmt.Sprintf("field %q (session): %q is not valid UTF-8", names[roleSession], sess.text)}, nil
	}
	var l, m []byte
	var k interaction.Kind
	if a := ev[roleAction]; a.typ != absent {
		i := bytes.IndexAny(a.text, "!?")
		if a.typ != text || i <= 0 || i == len(a.text)-1 {
			return &badField{role: roleAction, msg: fmt.Sprintf("field %q (action): %s is not an action l!m or l?m", names[roleAction], show(a))}, nil
		}
		l, m = a.text[:i], a.text[i+1:]
		if a.text[i] == '?' {
			k = interaction.Reception
		}
		if ll := ev[roleLifeline]; ll.typ != absent && !bytes.Equal(ll.text, l) {
			return &badField{role: roleLifeline, msg: fmt.Sprintf("field %q (lifeline): %s disagrees with the action %q", names[roleLifeline], show(ll), a.text)}, nil
		}
	} else {
		for _, r := range []role{roleLifeline, roleKind, roleMessage} {
			if ev[r].typ == absent {
				return &badField{role: r, msg: fmt.Sprintf("no action: expected field %q (l!m or l?m), or fields %q, %q and %q, but %q is missing",
					names[roleAction], names[roleLifeline], names[roleKind], names[roleMessage], names[r])}, nil
			}
			if ev[r].typ != text {
				return &badField{role: r, msg: fmt.Sprintf("field %q (%s): expected a string, found %s", names[r], roleNames[r], show(ev[r]))}, nil
			}
		}
		l, m = ev[roleLifeline].text, ev[roleMessage].text
		switch kind := ev[roleKind].text; { // the exact words first: most logs write them
		case string(kind) == "send" || string(kind) == "!":
			k = interaction.Emission
		case string(kind) == "receive" || string(kind) == "?":
			k = interaction.Reception
		case bytes.EqualFold(kind, []byte("send")):
			k = interaction.Emission
		case bytes.EqualFold(kind, []byte("receive")):
			k = interaction.Reception
		default:
			return &badField{role: roleKind, msg: fmt.Sprintf("field %q (kind): %q is not send, receive, ! or ?", names[roleKind], kind)}, nil
		}
	}
	act, ok, undeclared := b.action(sess.text, line, l, k, m)
	if undeclared != "" {
		r := roleAction
		if ev[r].typ == absent {
			r = roleLifeline
		}
		return &badField{role: r, msg: undeclared, undeclared: true}, nil
	}
	if !ok {
		return nil, nil
	}
	var key Key
	if s := ev[roleSeq]; s.typ != absent {
		n, ok := parseInt(s.text)
		if !ok || s.typ == other {
			return &badField{role: roleSeq, msg: fmt.Sprintf("field %q (seq): %s is not an integer", names[roleSeq], show(s))}, nil
		}
		key = Key{Kind: KeySeq, Hi: n}
	} else if t := ev[roleTime]; t.typ != absent {
		var ok bool
		if t.typ != other {
			key, ok = b.times.parseTime(t.text)
		}
		if !ok {
			return &badField{role: roleTime, msg: fmt.Sprintf("field %q (time): %s is neither an RFC 3339 time nor a number", names[roleTime], show(t))}, nil
		}
	}
	return nil, b.add(sess.text, line, act, key, 0)
}

// ascii reports whether s is ASCII: mostly short ids, told without a
// call to utf8.Valid.
func ascii(s []byte) bool {
	var or byte
	for _, c := range s {
		or |= c
	}
	return or < utf8.RuneSelf
}

// show quotes a value for an error message.
func show(v value) string {
	switch v.typ {
	case text:
		return fmt.Sprintf("%q", v.text)
	case number:
		return string(v.text)
	}
	return "a value of another type"
}

// parseInt reads a decimal integer, optionally signed.
func parseInt(s []byte) (int64, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 19 {
		return 0, false
	}
	var n uint64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if neg {
		if n > 1<<63 {
			return 0, false
		}
		return -int64(n), true
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
}

// parseTime reads a time: a number (KeyNumber) or an RFC 3339 time with up
// to nanoseconds (KeyTime).
func parseTime(s []byte) (Key, bool) {
	var c timeCache
	return c.parseTime(s)
}

// parseTime is parseTime, reading the date of an RFC 3339 time only when
// it is not the one of the time before (see timeCache.parseRFC3339).
func (c *timeCache) parseTime(s []byte) (Key, bool) {
	if sec, nsec, ok := c.parseRFC3339(s); ok {
		return Key{Kind: KeyTime, Hi: sec, Lo: uint32(nsec)}, true
	}
	if isNumber(s) {
		if hi, lo, ok := parseNumber(s); ok {
			return Key{Kind: KeyNumber, Hi: hi, Lo: lo}, true
		}
		return Key{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, string(s))
	if err != nil {
		return Key{}, false
	}
	return Key{Kind: KeyTime, Hi: t.Unix(), Lo: uint32(t.Nanosecond())}, true
}

// isNumber reports whether s is a decimal number as JSON writes it,
// -?digits[.digits][(e|E)[+|-]digits] (leading zeros allowed, as CSV
// columns have them), and nothing else: no "+1", "--5.5", ".5", "1." or
// hexadecimal, which strconv would read.
func isNumber(s []byte) bool {
	i := 0
	digits := func() bool {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if !digits() {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(s)
}

// parseNumber reads a decimal number [-]int[.frac][e±exp] (isNumber) as
// the floor of its value and its fractional part in billionths (digits past
// the ninth are dropped), so that any two compare as their values do.
func parseNumber(s []byte) (hi int64, lo uint32, ok bool) {
	mant := s
	if bytes.ContainsAny(s, "eE") {
		return parseFloat(s)
	}
	neg := len(mant) > 0 && mant[0] == '-'
	if neg {
		mant = mant[1:]
	}
	intPart, frac, hasFrac := bytes.Cut(mant, []byte{'.'})
	n, ok := parseInt(intPart)
	if !ok || intPart[0] == '+' || hasFrac && len(frac) == 0 {
		return 0, 0, false
	}
	var f uint32
	for i, c := range frac {
		if c < '0' || c > '9' {
			return 0, 0, false
		}
		if i < 9 {
			f = f*10 + uint32(c-'0')
		}
	}
	for i := len(frac); i < 9; i++ {
		f *= 10
	}
	if neg {
		n = -n
		if f > 0 {
			n--
			f = 1e9 - f
		}
	}
	return n, f, true
}

// parseFloat reads a number with an exponent, as a float64.
func parseFloat(s []byte) (int64, uint32, bool) {
	v, err := strconv.ParseFloat(string(s), 64)
	if err != nil || v != v || v >= 1<<63 || v < -(1<<63) {
		return 0, 0, false
	}
	hi := int64(v)
	if float64(hi) > v {
		hi--
	}
	lo := uint32((v - float64(hi)) * 1e9)
	return hi, min(lo, 1e9-1), true
}

// parseRFC3339 reads the common form of RFC 3339 times,
// 2006-01-02T15:04:05[.999999999](Z|±07:00), faster than time.Parse, as
// seconds since the Unix epoch and nanoseconds; false for anything else,
// which time.Parse then reads.
func parseRFC3339(s []byte) (sec int64, nsec int, ok bool) {
	var c timeCache
	return c.parseRFC3339(s)
}

// timeCache holds the last date that parseRFC3339 read, with its day
// since the Unix epoch: the times of a log mostly share their date.
type timeCache struct {
	date [10]byte // 2006-01-02; zero when none
	days int64
}

// parseRFC3339 is parseRFC3339, reading the date of s only when it is not
// the one of the time before (which is then kept).
func (c *timeCache) parseRFC3339(s []byte) (sec int64, nsec int, ok bool) {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return 0, 0, false // (and so c.date, when it is s's, is set)
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range s[i : i+n] {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	if [10]byte(s) != c.date {
		year, month, day := num(0, 4), num(5, 2), num(8, 2)
		if year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) {
			return 0, 0, false
		}
		c.date, c.days = [10]byte(s), daysFromCivil(year, month, day)
	}
	hour, minute, second := num(11, 2), num(14, 2), num(17, 2)
	if hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 {
		return 0, 0, false
	}
	rest := s[19:]
	if rest[0] == '.' {
		i := 1
		if v, ok := digits8(rest[1:]); ok { // the common milli-, micro- and nanoseconds
			nsec, i = int(v), 9
		}
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			if i <= 9 {
				nsec = nsec*10 + int(rest[i]-'0')
			}
			i++
		}
		if i == 1 || i > 10 {
			return 0, 0, false
		}
		for j := i; j <= 9; j++ {
			nsec *= 10
		}
		rest = rest[i:]
	}
	offset := 0
	switch {
	case len(rest) == 1 && rest[0] == 'Z':
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h, m := num(len(s)-5, 2), num(len(s)-2, 2)
		if h < 0 || h > 23 || m < 0 || m > 59 {
			return 0, 0, false
		}
		offset = (h*60 + m) * 60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return 0, 0, false
	}
	return c.days*86400 + int64(hour*3600+minute*60+second-offset), nsec, true
}

// digits8 returns the value of the 8 decimal digits that s starts with;
// false when s is shorter or one of them is not a digit. It reads them as
// one word, adding pairs of digits, then pairs of pairs.
func digits8(s []byte) (uint32, bool) {
	if len(s) < 8 {
		return 0, false
	}
	w := binary.LittleEndian.Uint64(s)
	d := w - 0x3030303030303030 // each byte's digit, when it is one
	// A digit byte is 0x30–0x39: its high half is 3, and adding 6 to its
	// digit does not carry into the high half.
	if w&0xf0f0f0f0f0f0f0f0 != 0x3030303030303030 || (d+0x0606060606060606)&0xf0f0f0f0f0f0f0f0 != 0 {
		return 0, false
	}
	d = (d*10 + d>>8) & 0x00ff00ff00ff00ff   // pairs: the first byte's digit is the most significant
	d = (d*100 + d>>16) & 0x0000ffff0000ffff // fours
	return uint32((d*10000 + d>>32) & 0xffffffff), true
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil returns the number of days from 1970-01-01 to a date of
// the proleptic Gregorian calendar (H. Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400 // y ≥ 0 here: no negative division to correct
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}
