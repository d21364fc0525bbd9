// japicmp's post-analysis step (see the japicmp plugin in the parent POM): a breaking change of the public API passes
// when the newest section of CHANGELOG.md (the version being built) lists it on a line
//
//     - Breaking: `dev.agentpersistence.Type#member` ...
//
// naming a type (every change of it), or a method, field or constructor (`Type#<init>`) of a type (every overload).
// Every accepted break is printed; one that is not listed stays in the result and fails the build as before.
// The CHANGELOG is read from the directory Maven runs the reactor in (.mvn marks it).

def root = new File(System.getProperty('maven.multiModuleProjectDirectory', '.'))
def changelog = new File(root, 'CHANGELOG.md')
Set<String> listed = [] as Set
String section = null
if (changelog.isFile()) {
    for (String line : changelog.readLines('UTF-8')) {
        if (line.startsWith('## ')) {
            if (section != null) {
                break
            }
            section = line.substring(3).trim()
        } else if (section != null) {
            def entry = line =~ /^\s*[-*]\s+Breaking:\s+(.*)$/
            if (entry.matches()) {
                (entry.group(1) =~ /`([\w.$]+(?:#[\w$<>]+)?)`/).each { match -> listed << match[1] }
            }
        }
    }
}

def breaks = { element -> !element.isBinaryCompatible() || !element.isSourceCompatible() }
def accept = { String name ->
    println "[api-changes] breaking change of ${name} accepted: CHANGELOG.md lists it under ${section}"
    true
}

jApiClasses.removeIf { type -> breaks(type) && listed.contains(type.fullyQualifiedName) && accept(type.fullyQualifiedName) }
for (type in jApiClasses) {
    String prefix = type.fullyQualifiedName + '#'
    type.methods.removeIf { method -> breaks(method) && listed.contains(prefix + method.name) && accept(prefix + method.name) }
    type.fields.removeIf { field -> breaks(field) && listed.contains(prefix + field.name) && accept(prefix + field.name) }
    type.constructors.removeIf { constructor ->
        breaks(constructor) && listed.contains(prefix + '<init>') && accept(prefix + '<init>')
    }
}
for (type in jApiClasses.findAll(breaks)) {
    def members = (type.methods + type.fields).findAll(breaks).collect { it.name }.unique()
    if (type.constructors.any(breaks)) {
        members << '<init>'
    }
    def names = members.isEmpty() ? [type.fullyQualifiedName] : members.collect { type.fullyQualifiedName + '#' + it }
    println "[api-changes] not listed in the newest section of CHANGELOG.md (${section ?: 'none'}), so the build fails: " +
            names.collect { "- Breaking: `${it}` ..." }.join(', ')
}
return jApiClasses
