package main

import (
	"io"
	"strings"
	"testing"
)

func TestInternalError(t *testing.T) {
	a := &app{env: testEnv(io.Discard, io.Discard)}
	if err := a.internalError(nil); err != nil {
		t.Errorf("internalError(nil) = %v", err)
	}
	err := a.internalError("index out of range")
	if err == nil || err.Error() != "internal error: index out of range (please report this bug, with the input files)" {
		t.Errorf("got %v", err)
	}
	a.getenv = func(key string) string {
		if key == "IVC_DEBUG" {
			return "1"
		}
		return ""
	}
	if err := a.internalError("boom"); err == nil || !strings.Contains(err.Error(), "goroutine") {
		t.Errorf("IVC_DEBUG=1: no stack trace in %v", err)
	}
}
