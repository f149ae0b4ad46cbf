package strategy

import (
	"context"
)

// Reload reads the instances from the store again (in a cluster, after
// another instance changed one); instances keep their evaluation state.
func (e *Engine) Reload(ctx context.Context) error {
	recs, err := e.d.Store.Strategies(ctx)
	if err != nil {
		return err
	}
	cfgs := make([]Config, 0, len(recs))
	for _, r := range recs {
		c, err := fromRecord(r)
		if err != nil {
			return err
		}
		cfgs = append(cfgs, c)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range cfgs {
		e.adopt(c)
	}
	return nil
}
