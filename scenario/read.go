package scenario

import (
	"fmt"

	"github.com/leolab/leolab/internal/bounded"
)

// MaxFileBytes bounds a scenario or campaign file. The YAML parser holds
// ~70 bytes per byte of input (a 42 MB file of 2.5 M flow entries took
// 2.8 GB and 18 s only to be refused for its flow count), while the
// largest file that can pass, MaxFlows entries with parameters, is under
// 1 MB.
const MaxFileBytes = 2 << 20

// ReadFile reads a scenario or campaign file, refusing one larger than
// MaxFileBytes before holding it in memory.
func ReadFile(file string) ([]byte, error) {
	data, over, err := bounded.ReadFile(file, MaxFileBytes)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, tooBig(file)
	}
	return data, nil
}

// checkSize refuses input beyond MaxFileBytes.
func checkSize(file string, data []byte) error {
	if len(data) > MaxFileBytes {
		return tooBig(file)
	}
	return nil
}

func tooBig(file string) error {
	return &Error{File: file, Msg: fmt.Sprintf("larger than %d bytes (2 MiB): a file of %d flows with parameters is under 1 MB", MaxFileBytes, MaxFlows)}
}
