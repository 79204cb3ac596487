package logs

// SetMaxLine lowers the readers' line limit for a test and returns the
// function that restores it. The test must not be parallel.
func SetMaxLine(n int) (restore func()) {
	old := maxLine
	maxLine = n
	return func() { maxLine = old }
}
