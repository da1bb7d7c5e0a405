// The store's values and rules are NoteTakerModel's: every client of the store uses them.
@_exported import NoteTakerModel
