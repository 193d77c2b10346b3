// Package all registers every congestion control of leolab; import it for
// its side effects: import _ "github.com/leolab/leolab/cc/all".
package all

import (
	_ "github.com/leolab/leolab/cc/astraea"
	_ "github.com/leolab/leolab/cc/bbr"
	_ "github.com/leolab/leolab/cc/copa"
	_ "github.com/leolab/leolab/cc/cubic"
	_ "github.com/leolab/leolab/cc/fixed"
	_ "github.com/leolab/leolab/cc/hybla"
	_ "github.com/leolab/leolab/cc/leocc"
	_ "github.com/leolab/leolab/cc/lmbbr"
	_ "github.com/leolab/leolab/cc/orca"
	_ "github.com/leolab/leolab/cc/pcckernel"
	_ "github.com/leolab/leolab/cc/reno"
	_ "github.com/leolab/leolab/cc/sage"
	_ "github.com/leolab/leolab/cc/satcp"
	_ "github.com/leolab/leolab/cc/vegas"
	_ "github.com/leolab/leolab/cc/vivace"
)
