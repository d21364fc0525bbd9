package dev.agentpersistence;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The layering rules of ARCHITECTURE.md over a set of imported classes and the modules they belong to. Which module is
 * a backend or an integration, and which classes belong to which module, comes from the {@link ReactorModule}
 * descriptions, so a new module is held to the rules of its kind without being listed here.
 */
final class ArchitectureRules {
    /** The root package of the API: its data model, exceptions and facade. */
    static final String ROOT_PACKAGE = "dev.agentpersistence";

    /** The facade: a type of the root package that uses the packages below it. */
    static final String FACADE = ROOT_PACKAGE + ".AgentPersistence";

    /**
     * The storage SPI: the other type of the root package that names a package below it (its {@code storedForm()}
     * returns the backend package's {@code StoredForm}).
     */
    static final String STORAGE_SPI = ROOT_PACKAGE + ".PersistenceStorageProvider";

    /** The root package's types that use the packages below it, each a slice of its own; the rest is the data model. */
    static final List<String> ABOVE_THE_DATA_MODEL = List.of(FACADE, STORAGE_SPI);

    /** The storage shell, which integrations never use: they work over any provider. */
    static final String STORAGE_SHELL = ROOT_PACKAGE + ".storage";

    /**
     * What a backend never reaches: the stored form, the history layer, the shell's internals and the API's internal
     * package (with {@code StorageChecks}). The shell owns ids, the stored form and history.
     */
    static final List<String> ABOVE_THE_BACKENDS = List.of(
            ROOT_PACKAGE + ".codec",
            ROOT_PACKAGE + ".history",
            ROOT_PACKAGE + ".storage.internal",
            ROOT_PACKAGE + ".internal");

    /** What the root package's data model may depend on besides the root package and its internal package. */
    static final List<String> DATA_MODEL_LIBRARIES = List.of("java..", "com.fasterxml.jackson..", "org.slf4j..");

    private static final String INTERNAL = "internal";

    private final JavaClasses classes;
    private final List<ReactorModule> modules;

    /**
     * @param classes the production classes to check
     * @param modules the modules those classes belong to; a class belongs to the module with the longest root package
     *     enclosing it
     */
    ArchitectureRules(JavaClasses classes, List<ReactorModule> modules) {
        this.classes = Objects.requireNonNull(classes, "classes");
        this.modules = modules.stream()
                .filter(ReactorModule::hasMainCode)
                .sorted(Comparator.comparingInt(ArchitectureRules::rootPackageLength)
                        .reversed())
                .toList();
    }

    /** Every rule, in the order of ARCHITECTURE.md. */
    List<ArchRule> all() {
        return List.of(
                packagesFreeOfCycles(),
                rootDataModelDependsOnPlainTypesOnly(),
                backendsStayBelowTheShell(),
                internalsStayInTheirModule(),
                integrationsUseThePublicApiOnly(),
                uniqueSimpleNames());
    }

    /** Checks {@code rule} on the classes; throws the {@link AssertionError} of ArchUnit naming every violation. */
    void check(ArchRule rule) {
        rule.check(classes);
    }

    /** The modules with main code of which no class was imported: the rules would pass over them unseen. */
    List<String> modulesWithoutClasses() {
        var seen = new TreeSet<String>();
        classes.forEach(javaClass -> moduleOf(javaClass).ifPresent(module -> seen.add(module.directory())));
        return modules.stream()
                .map(ReactorModule::directory)
                .filter(module -> !seen.contains(module))
                .toList();
    }

    /**
     * The packages and types these rules name that none of the classes is or lies in, and the registered provider
     * factories that are not among the classes: a rule over a name that no longer exists passes without checking.
     */
    List<String> namedButAbsent() {
        Stream<String> packages = Stream.concat(ABOVE_THE_BACKENDS.stream(), Stream.of(ROOT_PACKAGE, STORAGE_SHELL))
                .filter(name -> classes.stream().noneMatch(c -> inPackage(c.getPackageName(), name)));
        Stream<String> types = Stream.concat(
                        ABOVE_THE_DATA_MODEL.stream(),
                        modules.stream().flatMap(module -> module.providerFactories().stream()))
                .filter(name -> !classes.contain(name));
        return Stream.concat(packages, types).toList();
    }

    /**
     * No cycles between packages, each taken with its {@code .internal} subpackages (public types delegate to their
     * internals, which speak the public types). In the root package the facade and the storage SPI are slices of their
     * own: the data model the packages below speak is one slice, each type that uses them another.
     */
    ArchRule packagesFreeOfCycles() {
        return slices().assignedFrom(new SliceAssignment() {
                    @Override
                    public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                        return SliceIdentifier.of(
                                aboveTheDataModel(javaClass).orElseGet(() -> publicPackageOf(javaClass)));
                    }

                    @Override
                    public String getDescription() {
                        return "packages (each with its internal subpackages; the facade and the SPI apart from the"
                                + " data model)";
                    }
                })
                .should()
                .beFreeOfCycles()
                .as("packages, each with its internal subpackages, and the facade and the SPI apart from the root"
                        + " package's data model, are free of cycles");
    }

    /**
     * The root package's data model (all of it but the facade and the SPI) depends on the JDK, Jackson, SLF4J and its
     * own internal package only, never on the packages below that speak it.
     */
    ArchRule rootDataModelDependsOnPlainTypesOnly() {
        var allowed = new ArrayList<>(DATA_MODEL_LIBRARIES);
        allowed.add(ROOT_PACKAGE);
        allowed.add(ROOT_PACKAGE + "." + INTERNAL + "..");
        return classes()
                .that()
                .resideInAPackage(ROOT_PACKAGE)
                .and(DescribedPredicate.describe(
                        "are not the facade or the SPI",
                        (JavaClass c) -> aboveTheDataModel(c).isEmpty()))
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(allowed.toArray(String[]::new))
                .as("the root package's data model depends on the JDK, Jackson, SLF4J and its internal package only")
                .because("the packages below the root speak the data model; only the facade and the SPI use them");
    }

    /** Backend code (the packages of the registered provider factories) stays below the storage shell. */
    ArchRule backendsStayBelowTheShell() {
        String[] backendPackages = modules.stream()
                .flatMap(module -> module.providerPackages().stream())
                .map(name -> name + "..")
                .toArray(String[]::new);
        return noClasses()
                .that()
                .resideInAnyPackage(backendPackages)
                .should()
                .dependOnClassesThat(DescribedPredicate.describe(
                        "are the stored form, the history layer, the shell's internals or the API's internals",
                        (JavaClass target) ->
                                ABOVE_THE_BACKENDS.stream().anyMatch(name -> inPackage(target.getPackageName(), name))))
                .as("backend modules never reach the stored form, the history layer, the shell's internals or the"
                        + " API's internals")
                .because("the storage shell owns ids, the stored form and history; a backend stores bytes");
    }

    /** No class reaches an {@code internal} package of another module. */
    ArchRule internalsStayInTheirModule() {
        return classes()
                .should(new ArchCondition<JavaClass>("reach internal packages of their own module only") {
                    @Override
                    public void check(JavaClass javaClass, ConditionEvents events) {
                        Optional<ReactorModule> own = moduleOf(javaClass);
                        for (Dependency dependency : javaClass.getDirectDependenciesFromSelf()) {
                            JavaClass target = dependency.getTargetClass();
                            Optional<ReactorModule> owner = moduleOf(target);
                            if (isInternal(target.getPackageName()) && !owner.equals(own)) {
                                events.add(SimpleConditionEvent.violated(
                                        dependency,
                                        dependency.getDescription() + ", internal to "
                                                + owner.map(ReactorModule::directory)
                                                        .orElse("no module")));
                            }
                        }
                    }
                })
                .as("no module reaches another module's internal packages");
    }

    /** Integration modules work over any provider: no storage shell, no backend module. */
    ArchRule integrationsUseThePublicApiOnly() {
        String[] integrationPackages = modules.stream()
                .filter(ReactorModule::isIntegration)
                .map(module -> module.rootPackage().orElseThrow() + "..")
                .toArray(String[]::new);
        return noClasses()
                .that()
                .resideInAnyPackage(integrationPackages)
                .should()
                .dependOnClassesThat(DescribedPredicate.describe(
                        "are the storage shell or belong to a backend module",
                        (JavaClass target) -> inPackage(target.getPackageName(), STORAGE_SHELL)
                                || moduleOf(target)
                                        .filter(ReactorModule::isBackend)
                                        .isPresent()))
                .as("integrations speak the public API only: no storage shell, no storage module")
                .because("an integration works over any PersistenceStorageProvider");
    }

    /** One name, one thing: no two top-level classes share a simple name. */
    ArchRule uniqueSimpleNames() {
        return classes()
                .that(DescribedPredicate.describe(
                        "are top-level classes",
                        (JavaClass c) ->
                                c.isTopLevelClass() && !c.getSimpleName().equals("package-info")))
                .should(new ArchCondition<JavaClass>("have a simple name no other class has") {
                    private final Map<String, List<String>> bySimpleName = new HashMap<>();

                    @Override
                    public void init(Collection<JavaClass> allObjectsToTest) {
                        bySimpleName.clear();
                        allObjectsToTest.forEach(c -> bySimpleName
                                .computeIfAbsent(c.getSimpleName(), name -> new ArrayList<>())
                                .add(c.getName()));
                    }

                    @Override
                    public void check(JavaClass javaClass, ConditionEvents events) {
                        List<String> named = bySimpleName.getOrDefault(javaClass.getSimpleName(), List.of());
                        if (named.size() > 1) {
                            events.add(SimpleConditionEvent.violated(
                                    javaClass,
                                    javaClass.getName() + " shares its simple name with "
                                            + named.stream()
                                                    .filter(name -> !name.equals(javaClass.getName()))
                                                    .sorted()
                                                    .toList()));
                        }
                    }
                })
                .as("one name, one thing: no two production classes share a simple name");
    }

    /** The module whose root package is the longest to enclose the class's package. */
    private Optional<ReactorModule> moduleOf(JavaClass javaClass) {
        String packageName = javaClass.getPackageName();
        return modules.stream().filter(module -> module.encloses(packageName)).findFirst();
    }

    private static int rootPackageLength(ReactorModule module) {
        return module.rootPackage().orElseThrow().length();
    }

    /** The type of {@link #ABOVE_THE_DATA_MODEL} that {@code javaClass} is or is nested in, if any. */
    private static Optional<String> aboveTheDataModel(JavaClass javaClass) {
        return ABOVE_THE_DATA_MODEL.stream()
                .filter(type ->
                        javaClass.getName().equals(type) || javaClass.getName().startsWith(type + "$"))
                .findFirst();
    }

    /** The package with its {@code internal} segment and everything after it removed. */
    private static String publicPackageOf(JavaClass javaClass) {
        List<String> segments = List.of(javaClass.getPackageName().split("\\."));
        int internal = segments.indexOf(INTERNAL);
        return internal < 0 ? javaClass.getPackageName() : String.join(".", segments.subList(0, internal));
    }

    private static boolean isInternal(String packageName) {
        return List.of(packageName.split("\\.")).contains(INTERNAL);
    }

    private static boolean inPackage(String packageName, String enclosing) {
        return packageName.equals(enclosing) || packageName.startsWith(enclosing + ".");
    }
}
