package postgres

// LockTable implements sqlcore.TableLocker: serialises first-user creation
// across connections and instances.
func (dialect) LockTable(table string) string {
	return `LOCK TABLE ` + table + ` IN SHARE ROW EXCLUSIVE MODE`
}
