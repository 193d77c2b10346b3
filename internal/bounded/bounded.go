// Package bounded reads input whose size its caller bounds: a file or a
// stream is read to its end or to one byte past the bound, whichever
// comes first, so memory follows the data up to the bound and never a
// size the input claims. Each caller keeps its own bound and its own
// message for input over it.
package bounded

import (
	"io"
	"os"
)

// Read reads r to its end, or to max+1 bytes when r holds more; over says
// r held more than max bytes (data is then its first max+1 bytes).
func Read(r io.Reader, max int64) (data []byte, over bool, err error) {
	data, err = io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, false, err
	}
	return data, int64(len(data)) > max, nil
}

// ReadFile reads the file at path as Read does. A regular file whose size
// is already over max is refused before any of it is read; the bytes read
// are checked again (a file that grows, or a device with no size).
func ReadFile(path string, max int64) (data []byte, over bool, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, false, err
	}
	if st.Mode().IsRegular() && st.Size() > max {
		return nil, true, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	return Read(f, max)
}
