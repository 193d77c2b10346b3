package campaign

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Errors of a store file that is not a store to use. They are reported,
// never papered over: SQLite takes a 0-byte file for an empty database and
// would create fresh tables in it, so a store truncated to nothing would
// silently lose its runs, and a mistyped --store would report an empty
// campaign as a success.
var (
	ErrStoreMissing   = errors.New("no such store")
	ErrStoreEmpty     = errors.New("the store is empty (0 bytes): its runs are lost, or it was never written")
	ErrStoreTruncated = errors.New("the store is truncated")
	ErrStoreNotSQLite = errors.New("not a SQLite store")
)

// sqliteMagic opens every SQLite 3 database file (sqlite.org/fileformat.html §1.3).
const sqliteMagic = "SQLite format 3\x00"

// checkStoreFile reports what is wrong with an existing store file: empty,
// not SQLite, or shorter than its header says (truncated). A missing file
// is ErrStoreMissing (the caller decides whether to create it).
func checkStoreFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("store %s: %w", path, ErrStoreMissing)
	}
	if err != nil {
		return fmt.Errorf("store %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("store %s: %w", path, err)
	}
	if st.IsDir() {
		return fmt.Errorf("store %s: is a directory (--store names the SQLite file)", path)
	}
	if st.Size() == 0 {
		return fmt.Errorf("store %s: %w; remove it to start the campaign afresh", path, ErrStoreEmpty)
	}
	var h [100]byte // the database header (§1.3)
	n, _ := io.ReadFull(f, h[:])
	if string(h[:min(n, len(sqliteMagic))]) != sqliteMagic[:min(n, len(sqliteMagic))] {
		return fmt.Errorf("store %s: %w (it does not start with %q)", path, ErrStoreNotSQLite, sqliteMagic[:15])
	}
	if n < len(h) {
		return fmt.Errorf("store %s: %w: %d bytes, not even the 100-byte header", path, ErrStoreTruncated, n)
	}
	// Page size at offset 16 (1 means 65536); the database's size in pages
	// at 28, valid when the version-valid-for number at 92 equals the
	// change counter at 24 (§1.3.7).
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	valid := binary.BigEndian.Uint32(h[92:96]) == binary.BigEndian.Uint32(h[24:28])
	// A crash in a checkpoint can leave the header ahead of the pages,
	// with the write-ahead log still holding them; SQLite recovers that
	// itself, so only a file without a log is judged by its size.
	if valid && pages > 0 && st.Size() < pages*pageSize && !hasWAL(path) {
		return fmt.Errorf("store %s: %w: %d bytes, its header says %d pages of %d bytes (%d)",
			path, ErrStoreTruncated, st.Size(), pages, pageSize, pages*pageSize)
	}
	return nil
}

// hasWAL reports whether the store has a non-empty write-ahead log.
func hasWAL(path string) bool {
	st, err := os.Stat(path + "-wal")
	return err == nil && st.Size() > 0
}

// createStore makes a new store at path that appears whole or not at all:
// SQLite leaves a 0-byte file between creating it and writing its header,
// and an empty store file is an error here, so a reader (`campaign
// status` beside a starting `campaign run`) must never see one. The
// store is made under a private name and linked into place; if another
// process made it first, theirs is kept.
func createStore(path string) error {
	tmp := fmt.Sprintf("%s.new-%d", path, os.Getpid())
	os.Remove(tmp) // a leftover of a killed creator with our pid
	st, err := openStore(tmp)
	if err != nil {
		return err
	}
	if err := st.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("store %s: %w", path, err)
	}
	defer os.Remove(tmp)
	err = os.Link(tmp, path)
	switch {
	case err == nil, errors.Is(err, fs.ErrExist):
		return nil
	case errors.Is(err, errors.ErrUnsupported), errors.Is(err, syscall.EPERM), errors.Is(err, syscall.EXDEV):
		// no hard links here: a rename is atomic too, if not exclusive
		return os.Rename(tmp, path)
	}
	return fmt.Errorf("store %s: %w", path, err)
}
