package main

import (
	"strings"
	"testing"
)

func TestInternalError(t *testing.T) {
	if err := internalError(nil); err != nil {
		t.Errorf("internalError(nil) = %v", err)
	}
	t.Setenv("IVC_DEBUG", "")
	err := internalError("index out of range")
	if err == nil || err.Error() != "internal error: index out of range (please report this bug, with the input files)" {
		t.Errorf("got %v", err)
	}
	t.Setenv("IVC_DEBUG", "1")
	if err := internalError("boom"); err == nil || !strings.Contains(err.Error(), "goroutine") {
		t.Errorf("IVC_DEBUG=1: no stack trace in %v", err)
	}
}
