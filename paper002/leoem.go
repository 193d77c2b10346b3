package paper002

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"os"
	"path/filepath"

	"github.com/leolab/leolab/internal/bounded"
)

//go:embed leoem/*.gz leoem/LICENSE leoem/README.md
var leoemFS embed.FS

// LeoEM's files as the campaigns name them (campaigns/../leoem/).
const (
	LeoEMDir      = "leoem"
	PathLogFile   = "Starlink_SD_NY_15_BP_path.log"
	HandoverECDF  = "timing_err_ecdf.dat"
	maxLeoEMBytes = 16 << 20 // the embedded files inflate to ~0.7 MB; a bound, not a size
)

// WriteLeoEM writes the embedded LeoEM path excerpt and handover-error
// distribution, uncompressed, to dir/leoem/ (where the campaigns written to
// dir/campaigns/ find them), with their licence and provenance.
func WriteLeoEM(dir string) error {
	out := filepath.Join(dir, LeoEMDir)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("paper002: %w", err)
	}
	for _, name := range []string{PathLogFile, HandoverECDF} {
		gz, err := leoemFS.ReadFile(LeoEMDir + "/" + name + ".gz")
		if err != nil {
			return fmt.Errorf("paper002: %w", err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			return fmt.Errorf("paper002: %s: %w", name, err)
		}
		data, over, err := bounded.Read(zr, maxLeoEMBytes)
		if err != nil {
			return fmt.Errorf("paper002: %s: %w", name, err)
		}
		if over {
			return fmt.Errorf("paper002: %s: decompresses to more than %d bytes", name, maxLeoEMBytes)
		}
		if err := writeIfChanged(filepath.Join(out, name), data); err != nil {
			return err
		}
	}
	for _, name := range []string{"LICENSE", "README.md"} {
		data, err := leoemFS.ReadFile(LeoEMDir + "/" + name)
		if err != nil {
			return fmt.Errorf("paper002: %w", err)
		}
		if err := writeIfChanged(filepath.Join(out, name), data); err != nil {
			return err
		}
	}
	return nil
}

// writeIfChanged writes data unless the file already holds it.
func writeIfChanged(name string, data []byte) error {
	if old, err := os.ReadFile(name); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return fmt.Errorf("paper002: %w", err)
	}
	return nil
}
