import PenEngine

/// The stages of the pipeline that need the daemon's shared settings, journal or devices, made by
/// whoever starts the input thread; nil inputs make a stage do nothing (the tests' and tools'
/// pipelines). The rest of the sequence needs nothing from outside (`MessagePipeline`).
struct PipelineStages {
    var settings: SettingsSnapshot
    var actions: PadActions
    var journal: JournalTap
    var virtualTablet: VirtualTabletStage?
    /// What the flight recorder keeps of each tablet's tools; nil when the recorder is off.
    var toolLedger: ToolLedgerTap?

    init(configuration: EngineConfiguration = EngineConfiguration(), inks: SharedInkChoice? = nil,
         tablets: SharedSetting<TabletSettings>? = nil, actions: SharedSetting<ActionMap>? = nil,
         journal: StrokeJournal? = nil, virtualTablet: VirtualTabletStage? = nil) {
        self.virtualTablet = virtualTablet
        settings = SettingsSnapshot(base: configuration, inks: inks, tablets: tablets)
        self.actions = PadActions(shared: actions)
        self.journal = JournalTap(journal: journal)
    }
}
