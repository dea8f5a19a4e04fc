console.log("Milpa demo");
