import PenEngine

/// The stages beside the engine, each with one concern; nil inputs make a stage do nothing
/// (the tests' and tools' pipelines).
struct PipelineStages {
    var settings: SettingsSnapshot
    var actions: PadActions
    var journal: JournalTap
    var horizons: HorizonVariants
    var virtualTablet: VirtualTabletStage?

    init(configuration: EngineConfiguration = EngineConfiguration(), inks: SharedInkChoice? = nil,
         tablets: SharedSetting<TabletSettings>? = nil, actions: SharedSetting<ActionMap>? = nil,
         journal: StrokeJournal? = nil, virtualTablet: VirtualTabletStage? = nil) {
        self.virtualTablet = virtualTablet
        settings = SettingsSnapshot(base: configuration, inks: inks, tablets: tablets)
        self.actions = PadActions(shared: actions)
        self.journal = JournalTap(journal: journal)
        horizons = HorizonVariants()
    }
}
