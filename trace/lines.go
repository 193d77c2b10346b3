package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// maxLineBytes bounds one line of a trace: a millisecond or a delay in ms
// is a handful of digits; anything longer is not a trace.
const maxLineBytes = 256

// forEachLine calls f with every line of r (1-based numbers, surrounding
// blanks and a CR trimmed), stopping at f's first error. A final newline
// ends the last line rather than opening an empty one.
func forEachLine(file string, r io.Reader, f func(line int, text []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, maxLineBytes), maxLineBytes)
	n := 0
	for sc.Scan() {
		n++
		if err := f(n, bytes.TrimSpace(sc.Bytes())); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &Error{File: file, Line: n + 1, Msg: fmt.Sprintf("line longer than %d bytes: not a trace (one number per line)", maxLineBytes)}
		}
		return &Error{File: file, Msg: err.Error()}
	}
	return nil
}

// openLimited opens file and refuses it when it is larger than limit bytes,
// before anything is read into memory.
func openLimited(file string, limit int64, what string) (*os.File, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, &Error{File: file, Msg: "is a directory, not a " + what}
	}
	if !st.Mode().IsRegular() { // a FIFO would block, a device never end
		f.Close()
		return nil, &Error{File: file, Msg: "not a regular file (a " + what + " is a text file)"}
	}
	if st.Size() > limit {
		f.Close()
		return nil, &Error{File: file, Msg: fmt.Sprintf("%d bytes: larger than the %d MiB a %s may have", st.Size(), limit>>20, what)}
	}
	return f, nil
}
