package logs

// SetMaxLine lowers the readers' line limit for a test and returns the
// function that restores it. The test must not be parallel.
func SetMaxLine(n int) (restore func()) {
	old := maxLine
	maxLine = n
	return func() { maxLine = old }
}

// SetProtoWire turns the reading of OTLP/protobuf requests from their
// bytes on or off (pdata then reads them all) for a test, and returns the
// function that restores it. The test must not be parallel.
func SetProtoWire(on bool) (restore func()) {
	old := wireOff
	wireOff = !on
	return func() { wireOff = old }
}

// WireDecodes reports whether b, an OTLP/protobuf request, is read from its
// bytes, against opt, rather than by pdata.
func WireDecodes(b []byte, opt Options) bool {
	t, err := NewTraceReader("wire", opt, nil)
	if err != nil {
		panic(err)
	}
	w := t.r.wireReader()
	defer w.reset()
	return w.decode(t.r, b)
}

// LentLinksRoom returns the room a reader lending its links keeps for the
// next request's (TraceReader.LendLinks).
func LentLinksRoom(t *TraceReader) int { return cap(t.e.links) }

// MaxLentLinks is maxLentLinks.
const MaxLentLinks = maxLentLinks

// SetJSONWire turns the reading of OTLP/JSON documents from their bytes on
// or off (pdata then reads them all) for a test, and returns the function
// that restores it. The test must not be parallel.
func SetJSONWire(on bool) (restore func()) {
	old := jsonWireOff
	jsonWireOff = !on
	return func() { jsonWireOff = old }
}

// JSONWireDecodes reports whether doc, an OTLP/JSON document (when
// element, one of its resource spans), is read from its bytes, against
// opt, rather than by pdata.
func JSONWireDecodes(doc []byte, opt Options, element bool) bool {
	t, err := NewTraceReader("wire", opt, nil)
	if err != nil {
		panic(err)
	}
	w := t.r.wireReader()
	defer w.reset()
	return w.decodeJSON(t.r, doc, element)
}

// IsOTLPProto reports whether the file in, of --log-format otlp, is read
// as OTLP/protobuf (the format's other encoding), as Open decides it from
// its head.
func IsOTLPProto(in []byte) bool { return isOTLPProto(in[:min(len(in), headSize)]) }
