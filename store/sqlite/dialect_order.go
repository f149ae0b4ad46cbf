package sqlite

// InsertOrder implements sqlcore.InsertOrderer: rowid is the order rows
// were inserted in.
func (dialect) InsertOrder() string { return "rowid" }
