package sage

import (
	"github.com/leolab/leolab/cc"
	csage "github.com/leolab/leolab/cc/sage"
)

type PolicyFileAlias = csage.PolicyFile

func newSage(pf *csage.PolicyFile) func(cc.Config) (cc.Controller, error) {
	return func(cfg cc.Config) (cc.Controller, error) {
		p, err := csage.NewPolicy("p", pf)
		if err != nil {
			return nil, err
		}
		return csage.New(cfg, p)
	}
}
